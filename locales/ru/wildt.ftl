# wildt: все тексты, которые может получить игрок, по-русски.
# Переменные как в locales/en/wildt.ftl; ходы и номера никогда не переводить.

## Темы писем

subject-new-game = новая партия: вы играете { $color ->
        [white] белыми
       *[black] чёрными
    } против { $opponent }
subject-new-address = ваш новый адрес партии
subject-move-accepted = { $move } принят
subject-your-move = { $move } - ваш ход
subject-draw-offer-sent = предложение ничьей передано
subject-draw-offered = предложение ничьей
subject-draw-declined = ничья отклонена
subject-status = позиция
subject-not-played = не выполнено
subject-game-over = партия окончена { $result }
subject-too-large = слишком большое письмо
subject-how-to-play = как играть
subject-security = письмо не было выполнено
subject-wrong-address = неверный адрес партии
subject-not-understood = не понято

## Начало партии

welcome-intro = Партия { $game }: вы играете { $color ->
        [white] белыми
       *[black] чёрными
    } против { $opponent }.
welcome-intro-event = Партия { $game } ({ $event }): вы играете { $color ->
        [white] белыми
       *[black] чёрными
    } против { $opponent }.
welcome-address = Ваш адрес для этой партии: { $address } - просто отвечайте на это письмо.
notation-explained =
    Ходы записываются в цифровой нотации ИКЧФ (ICCF): сначала исходное поле, затем конечное, каждое поле
    как цифра вертикали и цифра горизонтали (e2-e4 - это 5254; рокировка записывается ходом короля, 5171;
    при превращении добавляется 1 ферзь, 2 ладья, 3 слон, 4 конь).
new-address =
    Организатор выдал вам новый адрес для партии { $game } (вы играете { $color ->
        [white] белыми
       *[black] чёрными
    } против { $opponent }).
    Ваш адрес для этой партии теперь { $address } - просто отвечайте на это письмо.
    Письма на старый адрес больше не выполняются.

## Доска, запись, положение

record-line = Запись: { $record }
record-empty = Запись: (ходов пока нет)
status-to-move = Ход { $color ->
        [white] белых
       *[black] чёрных
    } ({ $number })
status-to-move-draw-offered = Ход { $color ->
        [white] белых
       *[black] чёрных
    } ({ $number }); { $offerer ->
        [white] белые предложили
       *[black] чёрные предложили
    } ничью
status-game-over = Партия окончена: { $result } ({ $termination })
board-legend = фигуры обозначены английскими буквами: K король, Q ферзь, R ладья, B слон, N конь, P пешка; заглавные буквы - белые
board-caption = { $color ->
        [white] Доска со стороны белых
       *[black] Доска со стороны чёрных
    }
record-heading = Запись партии
column-white = Белые
column-black = Чёрные

## Окончание партии

termination-checkmate = мат
termination-stalemate = пат
termination-insufficient-material = недостаточно материала
termination-resignation = сдача
termination-draw-agreed = ничья по соглашению
termination-threefold-repetition = троекратное повторение позиции
termination-fifty-move-rule = правило 50 ходов

## Как отвечать

footer-your-move =
    Ответьте на это письмо своим ходом в цифровой нотации, например «{ $number } { $example }».
    Другие команды: сдаюсь, предлагаю ничью, принимаю ничью, отклоняю ничью, требую ничью, доска.
footer-wait = Ход соперника придёт вам по почте.

## Решения

moved-mine = Партия { $game }: ваш ход { $move } ({ $san }) записан.
moved-mine-draw-offer = Ваше предложение ничьей передано.
moved-theirs = Партия { $game }: { $color ->
        [white] белые сыграли
       *[black] чёрные сыграли
    } { $move } ({ $san }).
moved-theirs-draw-offer = Этим ходом соперник предлагает ничью: ответьте «принимаю ничью» или просто пришлите свой ход, чтобы отказаться.
ended-resigned = { $color ->
        [white] Белые сдались
       *[black] Чёрные сдались
    }.
ended-draw-accepted = { $color ->
        [white] Белые приняли
       *[black] Чёрные приняли
    } ничью.
ended-draw-claimed = { $color ->
        [white] Белые потребовали
       *[black] Чёрные потребовали
    } ничью ({ $termination }); требование обосновано.
draw-offer-sent = Партия { $game }: ваше предложение ничьей передано сопернику.
draw-offered =
    Партия { $game }: { $color ->
        [white] белые предлагают
       *[black] чёрные предлагают
    } ничью.
    Ответьте «принимаю ничью» или «отклоняю ничью»; сделанный ход тоже означает отказ.
draw-declined-mine = Партия { $game }: вы отклонили предложение ничьей.
draw-declined-theirs = Партия { $game }: { $color ->
        [white] белые отклонили
       *[black] чёрные отклонили
    } ваше предложение ничьей. Партия продолжается.
status-intro = Партия { $game }: текущая позиция.
rejected-intro = Партия { $game }: ваше письмо не выполнено.
rejected-reason = Причина: { $reason }.
rejected-what-to-do = Что делать: { $todo }
game-over-body = Партия { $game } окончена: { $result } ({ $termination }).
game-over-thanks = Спасибо за партию.

## Что делать после отказа

todo-game-over = ничего: партия окончена. Попросите у организатора новую партию.
todo-wait = дождитесь хода соперника; он придёт вам по почте.
todo-compare-records = сверьте свою запись с записью ниже, затем пришлите ход в виде «{ $number } <ход>».
todo-compare-records-later = сверьте свою запись с записью ниже и, когда наступит ваша очередь, пришлите ход в виде «{ $number } <ход>».
todo-send-one = пришлите только свой ход для { $number }.
todo-send-if-yours = пришлите «{ $number } { $move }», если это ваш ход.
todo-choose-promotion = пришлите один из ходов: { $options } (5-я цифра: 1 ферзь, 2 ладья, 3 слон, 4 конь).
todo-send-legal = пришлите допустимый ход для { $number }; доска ниже.
todo-offer-draw-yourself = чтобы предложить ничью самостоятельно, напишите «предлагаю ничью» (можно вместе с ходом).
todo-play-on = играйте дальше: пришлите свой ход.

## Почему команда не выполнена

reject-game-over = партия окончена ({ $result }, { $termination }): ходы больше не принимаются
reject-not-your-turn = сейчас ход { $color ->
        [white] белых
       *[black] чёрных
    }: дождитесь хода соперника
reject-wrong-number = в письме указан ход { $given }, но партия находится на ходу { $expected } (ход { $color ->
        [white] белых
       *[black] чёрных
    }): записи разошлись
reject-echo-mismatch = на ходу { $number } в письме указано { $given }, а в записи - { $recorded }: записи разошлись
reject-several-new-moves = в вашем письме { $count ->
        [one] { $count } новый ход
        [few] { $count } новых хода
       *[other] { $count } новых ходов
    } ({ $moves }): присылайте по одному ходу
reject-already-recorded = { $number } { $move } уже есть в записи: пришлите следующий ход
reject-illegal = { $number } { $move } невозможен: { $why }
reject-no-draw-offer = соперник не предлагал ничью, отвечать не на что
reject-own-draw-offer = ничью предложили вы: принять её может только соперник
reject-claim-refused = потребовать ничью нельзя: позиция встретилась { $repetitions ->
        [one] { $repetitions } раз
        [few] { $repetitions } раза
       *[other] { $repetitions } раз
    } (нужно 3), и без взятий и ходов пешками { $moves ->
        [one] сделан { $moves } ход
        [few] сделано { $moves } хода
       *[other] сделано { $moves } ходов
    } (нужно 50)

## Почему ход невозможен

illegal-no-piece = на поле { $square } нет фигуры
illegal-opponents-piece = фигура на поле { $square } принадлежит { $color ->
        [white] чёрным, а ход белых
       *[black] белым, а ход чёрных
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] король
        [queen] ферзь
        [rook] ладья
        [bishop] слон
        [knight] конь
       *[pawn] пешка
    } на поле { $from } не может пойти на { $to }; сейчас у { $piece ->
        [rook] неё
        [pawn] неё
       *[other] него
    } нет допустимых ходов
illegal-cannot-reach-moves = { $piece ->
        [king] король
        [queen] ферзь
        [rook] ладья
        [bishop] слон
        [knight] конь
       *[pawn] пешка
    } на поле { $from } не может пойти на { $to }; { $piece ->
        [rook] её
        [pawn] её
       *[other] его
    } допустимые ходы: { $moves }
illegal-leaves-king-in-check = после { $move } ваш король на поле { $king } остался бы под шахом
illegal-castling = рокировка { $move } сейчас невозможна: { $reason }
castling-right-lost = король или эта ладья уже ходили
castling-piece-in-the-way = на пути стоит фигура, на поле { $square }
castling-in-check = король под шахом
castling-square-attacked = король прошёл бы через поле { $square } или встал бы на него, а оно атаковано
illegal-promotion-digit-missing = пешке, дошедшей до последней горизонтали, нужна 5-я цифра (1 ферзь, 2 ладья, 3 слон, 4 конь): { $options }
illegal-promotion-digit-not-allowed = { $move } - не превращение, поэтому 5-я цифра не нужна: напишите { $without }
illegal-old-promotion-form = { $given } - старая четырёхзначная запись превращения; стандартная запись - { $standard }: пришлите { $standard }, если это ваш ход

## Почему текст не является ходом

parse-wrong-length = в `{ $text }` { $count ->
        [one] { $count } цифра
        [few] { $count } цифры
       *[other] { $count } цифр
    }: в ходе 4 цифры (5 при превращении)
parse-not-a-digit = `{ $text }` содержит `{ $char }`, а это не цифра: записывайте ходы только цифрами, например 5254
parse-not-a-square = { $square } - не поле: вертикали и горизонтали нумеруются от 1 до 8
parse-same-square = `{ $text }` начинается и заканчивается на поле { $square }: ход ведёт с одного поля на другое
parse-bad-promotion-digit = `{ $text }` заканчивается на { $digit }: цифра превращения - 1 (ферзь), 2 (ладья), 3 (слон) или 4 (конь)

## Письмо без ясной команды

unclear-intro = Партия { $game }: ваше письмо не удалось прочитать как одну ясную команду, поэтому ничего не выполнено.
unclear-found = Что найдено: { $what }.
unclear-please =
    Ответьте, пожалуйста, только своим ходом в цифровой нотации, например «{ $number } 5254»,
    или одной из команд: сдаюсь, предлагаю ничью, принимаю ничью, отклоняю ничью, требую ничью, доска.
unclear-nothing-found = в вашем письме не найдено ни хода, ни команды; напишите ход в цифровой нотации отдельной строкой, например 13. 5254
unclear-several-moves = в вашем письме разные ходы ({ $moves }); пришлите один ход (можно с предшествующей записью, например 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` похоже на ход, но ходом не является: { $error }
unclear-algebraic = `{ $text }` - это алгебраическая нотация; эта партия играется в цифровой нотации (например, 5254 вместо e2-e4), поэтому ход не был преобразован
unclear-number-in-prose = `{ $text }` стоит посреди предложения и может быть вашим ходом, а может и не быть; напишите ход отдельной строкой, например 13. 5254
unclear-vague-draw = `{ $text }`: напишите, пожалуйста, «предлагаю ничью», «принимаю ничью» или «отклоняю ничью»
unclear-uncertain = `{ $text }` упоминает необратимую команду, но не как ясное заявление от вашего имени (она стоит в вопросе, условии, цитате, с отрицанием, рядом со словами о ком-то другом или в теме письма); если вы действительно этого хотите, напишите её отдельной строкой в письме (например, «сдаюсь»)
unclear-mixed-commands = в вашем письме больше одной команды ({ $commands }); присылайте их по одной
unclear-too-many-commands = в вашем письме { $count ->
        [one] { $count } ход или команда
        [few] { $count } хода и команды
       *[other] { $count } ходов и команд
    } - больше, чем допускается в одном письме ({ $limit }); пришлите только свой ход
unclear-malformed = письмо не удалось прочитать как электронное письмо

## Уведомления вне игры

too-large =
    Ваше письмо размером { $size } байт больше, чем читает этот судья ({ $limit } байт), поэтому оно не прочитано.
    Пришлите, пожалуйста, короткое письмо простым текстом только с ходом, без вложений.
help =
    Это { $name } <{ $address }>, судья партий по переписке.

    Ходы принимаются только на ваш собственный адрес партии, который выглядит так:
    { $local }+<партия>-<ключ>@{ $domain } и был прислан вам при создании партии.
    Просто отвечайте на любое письмо из вашей партии.

    Ходы записываются в цифровой нотации ИКЧФ (ICCF): сначала исходное поле, затем конечное,
    каждое поле как цифра вертикали и цифра горизонтали (e2-e4 - это 5254; рокировка
    записывается ходом короля, 5171; при превращении добавляется 1 ферзь, 2 ладья, 3 слон, 4 конь).

    Команды: ход, сдаюсь, предлагаю ничью, принимаю ничью, отклоняю ничью, требую ничью, доска.
auth-failed =
    Письмо для партии { $game } пришло с вашим адресом ({ $from }) в качестве отправителя, но почтовый сервер
    клуба не смог подтвердить, что оно от вас ({ $found }). Оно не выполнено.
    Если его отправили вы, проверьте, подписывает ли ваш почтовый провайдер письма (DKIM) и публикует ли DMARC;
    если нет, кто-то пытался сделать ход за вас.
auth-found-summary = его проверки показали: { $summary }
auth-found-nothing = он не нашёл в письме подтверждения отправителя
stranger =
    На ваш адрес для партии { $game } пришло письмо от { $from }, а это не ваш зарегистрированный адрес ({ $registered }).
    Оно не выполнено. Ходы засчитываются, только если приходят с вашего зарегистрированного адреса.
    Если это были не вы, ничего делать не нужно; если вы думаете, что ваш адрес партии знает кто-то другой,
    попросите у организатора новый (wildt game rekey).
wrong-address =
    Ваше письмо отправлено на адрес, который в партии { $game } не ваш, поэтому оно не выполнено.
    Ваш адрес для этой партии:

        { $address }

    Ответьте на это письмо, чтобы писать на него.

# conditional
cond-subject = условные ходы
cond-subject-prepared = { $move } сыгран из ваших условных ходов
cond-intro = Партия { $game }: ваши условные ходы.
cond-stored = Ваши условные ходы сохранены:
cond-cancelled = Ваши условные ходы отменены; сохранённых больше нет.
cond-rejected =
    Ваши условные ходы не приняты: { $reason }.
    Ваши прежние условные ходы, если они были, остаются без изменений.
cond-move-counts = Ход из вашего письма всё равно сыгран.
cond-not-considered = Ваши условные ходы не рассматривались, потому что остальная часть письма не была одной ясной командой; пришлите их снова вместе со своим ходом.
cond-prepared-played = Партия { $game }: соперник сыграл { $opponent }, и ваш заготовленный ответ { $answer } сыгран сразу.
cond-prepared-accepted = Партия { $game }: соперник сыграл { $opponent } и предложил ничью; ваши условные ходы её приняли.
cond-remaining = Что осталось от ваших условных ходов:
cond-none-remain = Условных ходов не осталось: на следующий ход вы ответите сами.
cond-relay-prepared = Соперник заготовил этот ход заранее; он сыгран в момент прихода вашего хода.
cond-off-tree = Ваши условные ходы не предусматривали { $opponent }, поэтому они удалены: ответьте сами.
cond-no-offer = Ваша условная линия заканчивалась принятием ничьей, но { $opponent } пришёл без предложения ничьей: ничего не сыграно, а ваши условные ходы исчерпаны. Ответьте сами.
cond-stale = Ваши условные ходы больше не подходят к партии, поэтому они удалены: ответьте сами.

# clock
termination-time-forfeit = просрочка времени
subject-clock-reminder = напоминание: ваш ход
subject-clock-low-time = ваше время на исходе
clock-reminder =
    Партия { $game }: ваш ход, а с прихода хода соперника прошло дней: { $days }.
    Пожалуйста, пришлите свой ход; ваши часы продолжают идти.
clock-low-time =
    Партия { $game }: на ваших часах осталось всего дней: { $days }. Если время истечёт, партия будет проиграна по времени.
clock-days-left = { $color ->
        [white] Белые
       *[black] Чёрные
    }: осталось дней: { $days } на ходы { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Белые
       *[black] Чёрные
    }: осталось дней: { $days }
termination-adjudication = решение судьи
subject-clock-leave = отпуск
subject-clock-ruling = решение о времени
clock-leave-granted =
    Партия { $game }: { $color ->
            [white] Белые
           *[black] Чёрные
        } в отпуске с { $from } по { $to } (оба дня включительно); их часы в это время не идут.
clock-days-given =
    Партия { $game }: решением организатора часам стороны «{ $color ->
            [white] Белые
           *[black] Чёрные
        }» добавлено дней: { $days }.
clock-adjudicated =
    Партия { $game } решена организатором: { $result }.
    Основание: { $reason }
clock-leave-refused = Партия { $game }: отпуск не записан: { $why }.
clock-leave-why-ends-before-start = он кончается ({ $to }) раньше, чем начинается ({ $from })
clock-leave-why-in-past = он начинается ({ $from }) раньше сегодняшнего дня ({ $today })
clock-leave-why-overlaps = он пересекается с вашим отпуском с { $from } по { $to }
clock-leave-why-exceeds = он занимает дней в { $year } году: { $asked }, а из ваших { $allowance } дней в год осталось только { $remaining }
clock-leave-why-overlaps-organiser = он пересекается с отпуском с { $from } по { $to }
clock-leave-why-exceeds-organiser = он занимает дней в { $year } году: { $asked }, а из { $allowance } дней в год осталось только { $remaining }
clock-leave-why-unclear = даты не удаётся прочитать; напишите, например: отпуск 20.12.2026 по 03.01.2027
clock-leave-cancelled = Партия { $game }: отпуск стороны «{ $color ->
        [white] Белые
       *[black] Чёрные
    }» с { $from } отменён; часы снова идут.
clock-leave-nothing-to-cancel = Партия { $game }: нет текущего или будущего отпуска, который можно отменить.

# event
termination-forfeit = неявка
termination-annulled = аннулирована организатором
subject-event-welcome = { $event }: ваши партии
event-welcome-intro = Добро пожаловать в { $event }, турнир по круговой системе (участников: { $players }; ваших партий: { $games }). Все ваши партии начинаются сейчас:
event-welcome-game = Партия { $game }: вы играете { $color ->
        [white] белыми
       *[black] чёрными
    } против { $opponent } - ходы присылайте на { $address }
event-welcome-outro = У каждой партии есть и своё приветственное письмо: отвечайте на него, чтобы присылать ходы в этой партии.
subject-event-withdrawal = { $event }: участник выбыл
event-withdrawal-forfeit = { $opponent } выбыл из { $event }. Ваша партия { $game } с этим участником засчитана вам как победа из-за неявки; она окончена.
event-withdrawal-annulled = { $opponent } выбыл из { $event }, не доиграв половины своих партий; его неоконченные партии аннулируются. Ваша партия { $game } с этим участником не засчитывается никому; она окончена.
event-standing = Положение в { $event }: место { $rank } из { $players }, очки: { $points }, сыграно партий: { $played }.

## A greeting when the player's name is known

greeting = Здравствуйте, { $name }!

## The player chose a language

subject-language-set = язык: русский
language-set = Теперь wildt пишет вам по-русски. Чтобы выбрать другой язык, ответьте строкой вида «язык: English».

## Требования и присуждение по таблицам эндшпиля

termination-tablebase = таблицы эндшпиля
tb-on-the-board = в позиции на доске
tb-after-move = после { $move } ({ $san }), ход не делается
tb-says-win = { $color ->
        [white] выигрывают белые
       *[black] выигрывают чёрные
    }
tb-says-win-cursed = { $color ->
        [white] выигрывают белые
       *[black] выигрывают чёрные
    } (за пределами правила 50 ходов, которое ИКЧФ здесь не применяет)
tb-says-draw = ничья
tb-undecided-off = у судьи нет таблиц эндшпиля
tb-undecided-castling = рокировка ещё возможна, а таких позиций в таблицах нет
tb-undecided-too-many-pieces = фигур на доске: { $pieces }; таблицы судьи содержат не более { $max }
tb-undecided-missing-table = у судьи нет таблицы для { $material }
tb-undecided-failed = таблицу судьи для { $material } не удалось прочитать
tb-claimed-win = { $color ->
        [white] Белые потребовали
       *[black] Чёрные потребовали
    } победу по таблицам ({ $position }); таблицы говорят: { $said }. Требование обосновано.
tb-claimed-draw = { $color ->
        [white] Белые потребовали
       *[black] Чёрные потребовали
    } ничью по таблицам ({ $position }); таблицы говорят: { $said }. Требование обосновано.
reject-tb-win = победу требовать нельзя ({ $position }): таблицы говорят: { $said }
reject-tb-draw = ничью требовать нельзя ({ $position }): таблицы говорят: { $said }
reject-tb-undecided = по таблицам ничего требовать нельзя ({ $position }): { $why }
tb-adjudicated = Судья решил партию по таблицам эндшпиля: { $said }.

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Сообщение соперника: { $note }
subject-xfcc-password = ваш пароль Xfcc
xfcc-password =
    Ваш новый пароль для игры из шахматной программы (Xfcc): { $password }
    Имя пользователя: { $user }
    Прежний пароль больше не действует. Чтобы получить новый, напишите "xfcc password" на любой из адресов ваших партий.
