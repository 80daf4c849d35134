# wildt: wszystkie teksty, które może otrzymać gracz, po polsku.
# Zmienne jak w locales/en/wildt.ftl; nigdy nie tłumaczyć ruchów ani numerów.

## Tematy wiadomości

subject-new-game = nowa partia: grasz { $color ->
        [white] białymi
       *[black] czarnymi
    } przeciwko { $opponent }
subject-new-address = Twój nowy adres partii
subject-move-accepted = { $move } przyjęty
subject-your-move = { $move } - Twój ruch
subject-draw-offer-sent = propozycja remisu przekazana
subject-draw-offered = propozycja remisu
subject-draw-declined = remis odrzucony
subject-status = pozycja
subject-not-played = nie wykonano
subject-game-over = koniec partii { $result }
subject-too-large = wiadomość za duża
subject-how-to-play = jak grać
subject-security = wiadomość nie została wykonana
subject-wrong-address = niewłaściwy adres partii
subject-not-understood = nie zrozumiano

## Początek partii

welcome-intro = Partia { $game }: grasz { $color ->
        [white] białymi
       *[black] czarnymi
    } przeciwko { $opponent }.
welcome-intro-event = Partia { $game } ({ $event }): grasz { $color ->
        [white] białymi
       *[black] czarnymi
    } przeciwko { $opponent }.
welcome-address = Twój adres w tej partii to { $address } - wystarczy odpowiedzieć na tę wiadomość.
notation-explained =
    Ruchy zapisuje się w notacji numerycznej ICCF: pole wyjściowe, a potem docelowe, każde pole jako
    cyfra kolumny, a potem cyfra rzędu (e2-e4 to 5254; roszada to ruch króla, 5171; przy promocji
    dopisuje się 1 hetman, 2 wieża, 3 goniec, 4 skoczek).
new-address =
    Organizator nadał Ci nowy adres w partii { $game } (grasz { $color ->
        [white] białymi
       *[black] czarnymi
    } przeciwko { $opponent }).
    Twój adres w tej partii to teraz { $address } - wystarczy odpowiedzieć na tę wiadomość.
    Wiadomości wysłane na stary adres nie są już wykonywane.

## Szachownica, zapis, sytuacja

record-line = Zapis: { $record }
record-empty = Zapis: (jeszcze bez ruchów)
status-to-move = Ruch { $color ->
        [white] białych
       *[black] czarnych
    } ({ $number })
status-to-move-draw-offered = Ruch { $color ->
        [white] białych
       *[black] czarnych
    } ({ $number }); { $offerer ->
        [white] białe zaproponowały
       *[black] czarne zaproponowały
    } remis
status-game-over = Koniec partii: { $result } ({ $termination })
board-legend = bierki oznaczone literami angielskimi: K król, Q hetman, R wieża, B goniec, N skoczek, P pionek; wielkie litery to białe
board-caption = { $color ->
        [white] Szachownica od strony białych
       *[black] Szachownica od strony czarnych
    }
record-heading = Zapis partii
column-white = Białe
column-black = Czarne

## Koniec partii

termination-checkmate = mat
termination-stalemate = pat
termination-insufficient-material = niewystarczający materiał
termination-resignation = poddanie
termination-draw-agreed = remis za porozumieniem
termination-threefold-repetition = trzykrotne powtórzenie pozycji
termination-fifty-move-rule = zasada 50 ruchów

## Jak odpowiedzieć

footer-your-move =
    Odpowiedz na tę wiadomość, podając swój ruch w notacji numerycznej, np. „{ $number } { $example }”.
    Inne polecenia: poddaję się, proponuję remis, przyjmuję remis, odrzucam remis, reklamuję remis, szachownica.
footer-wait = Ruch przeciwnika otrzymasz e-mailem.

## Rozstrzygnięcia

moved-mine = Partia { $game }: Twój ruch { $move } ({ $san }) został zapisany.
moved-mine-draw-offer = Twoja propozycja remisu została przekazana.
moved-theirs = Partia { $game }: { $color ->
        [white] białe zagrały
       *[black] czarne zagrały
    } { $move } ({ $san }).
moved-theirs-draw-offer = Tym ruchem przeciwnik proponuje remis: odpowiedz „przyjmuję remis” albo po prostu wyślij swój ruch, aby odmówić.
ended-resigned = { $color ->
        [white] Białe się poddały
       *[black] Czarne się poddały
    }.
ended-draw-accepted = { $color ->
        [white] Białe przyjęły
       *[black] Czarne przyjęły
    } remis.
ended-draw-claimed = { $color ->
        [white] Białe zareklamowały
       *[black] Czarne zareklamowały
    } remis ({ $termination }); reklamacja jest zasadna.
draw-offer-sent = Partia { $game }: Twoja propozycja remisu została przekazana przeciwnikowi.
draw-offered =
    Partia { $game }: { $color ->
        [white] białe proponują
       *[black] czarne proponują
    } remis.
    Odpowiedz „przyjmuję remis” albo „odrzucam remis”; wykonanie ruchu również oznacza odmowę.
draw-declined-mine = Partia { $game }: propozycja remisu została odrzucona.
draw-declined-theirs = Partia { $game }: { $color ->
        [white] białe odrzuciły
       *[black] czarne odrzuciły
    } Twoją propozycję remisu. Partia toczy się dalej.
status-intro = Partia { $game }: aktualna pozycja.
rejected-intro = Partia { $game }: Twoja wiadomość nie została wykonana.
rejected-reason = Powód: { $reason }.
rejected-what-to-do = Co zrobić: { $todo }
game-over-body = Partia { $game } zakończyła się: { $result } ({ $termination }).
game-over-thanks = Dziękujemy za partię.

## Co zrobić po odrzuceniu

todo-game-over = nic: partia jest zakończona. Poproś organizatora o nową partię.
todo-wait = poczekaj na ruch przeciwnika; dotrze do Ciebie e-mailem.
todo-compare-records = porównaj swój zapis z zapisem poniżej, a potem wyślij ruch w postaci „{ $number } <ruch>”.
todo-compare-records-later = porównaj swój zapis z zapisem poniżej, a gdy nadejdzie Twoja kolej, wyślij ruch w postaci „{ $number } <ruch>”.
todo-send-one = wyślij tylko swój ruch dla { $number }.
todo-send-if-yours = wyślij „{ $number } { $move }”, jeśli to jest Twój ruch.
todo-choose-promotion = wyślij jeden z tych ruchów: { $options } (5. cyfra: 1 hetman, 2 wieża, 3 goniec, 4 skoczek).
todo-send-legal = wyślij prawidłowy ruch dla { $number }; szachownica jest poniżej.
todo-offer-draw-yourself = aby samemu zaproponować remis, napisz „proponuję remis” (jeśli chcesz, razem z ruchem).
todo-play-on = graj dalej: wyślij swój ruch.

## Dlaczego polecenie nie zostało wykonane

reject-game-over = partia jest zakończona ({ $result }, { $termination }): ruchy nie są już przyjmowane
reject-not-your-turn = teraz ruch { $color ->
        [white] białych
       *[black] czarnych
    }: poczekaj na ruch przeciwnika
reject-wrong-number = w wiadomości jest ruch { $given }, ale partia jest na ruchu { $expected } (ruch { $color ->
        [white] białych
       *[black] czarnych
    }): oba zapisy się rozjechały
reject-echo-mismatch = przy ruchu { $number } w wiadomości jest { $given }, ale w zapisie jest { $recorded }: oba zapisy się rozjechały
reject-several-new-moves = Twoja wiadomość zawiera { $count ->
        [one] { $count } nowy ruch
        [few] { $count } nowe ruchy
       *[other] { $count } nowych ruchów
    } ({ $moves }): wysyłaj po jednym ruchu
reject-already-recorded = { $number } { $move } jest już w zapisie: wyślij swój następny ruch
reject-illegal = { $number } { $move } jest niemożliwy: { $why }
reject-no-draw-offer = przeciwnik nie zaproponował remisu, więc nie ma na co odpowiadać
reject-own-draw-offer = propozycja remisu jest Twoja: przyjąć ją może tylko przeciwnik
reject-claim-refused = nie można zareklamować remisu: pozycja wystąpiła { $repetitions ->
        [one] raz
       *[other] { $repetitions } razy
    } (potrzeba 3), a bez bicia ani ruchu pionkiem { $moves ->
        [one] wykonano { $moves } ruch
        [few] wykonano { $moves } ruchy
       *[other] wykonano { $moves } ruchów
    } (potrzeba 50)

## Dlaczego ruch jest nieprawidłowy

illegal-no-piece = na polu { $square } nie ma żadnej bierki
illegal-opponents-piece = bierka na polu { $square } należy do { $color ->
        [white] czarnych, a ruch mają białe
       *[black] białych, a ruch mają czarne
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] król
        [queen] hetman
        [rook] wieża
        [bishop] goniec
        [knight] skoczek
       *[pawn] pionek
    } z pola { $from } nie może pójść na { $to }; nie ma teraz żadnego prawidłowego ruchu
illegal-cannot-reach-moves = { $piece ->
        [king] król
        [queen] hetman
        [rook] wieża
        [bishop] goniec
        [knight] skoczek
       *[pawn] pionek
    } z pola { $from } nie może pójść na { $to }; { $piece ->
        [rook] jej
       *[other] jego
    } prawidłowe ruchy to { $moves }
illegal-leaves-king-in-check = po { $move } Twój król na polu { $king } byłby szachowany
illegal-castling = roszada { $move } jest teraz niemożliwa: { $reason }
castling-right-lost = król albo ta wieża już się ruszały
castling-piece-in-the-way = na drodze stoi bierka, na polu { $square }
castling-in-check = król jest szachowany
castling-square-attacked = król przeszedłby przez pole { $square } lub na nim stanął, a to pole jest atakowane
illegal-promotion-digit-missing = pionek, który dochodzi do ostatniego rzędu, potrzebuje 5. cyfry (1 hetman, 2 wieża, 3 goniec, 4 skoczek): { $options }
illegal-promotion-digit-not-allowed = { $move } nie jest promocją, więc nie ma 5. cyfry: napisz { $without }
illegal-old-promotion-form = { $given } to dawny, czterocyfrowy zapis promocji; standardowy zapis to { $standard }: wyślij { $standard }, jeśli to jest Twój ruch

## Dlaczego tekst nie jest ruchem

parse-wrong-length = `{ $text }` ma { $count ->
        [one] { $count } cyfrę
        [few] { $count } cyfry
       *[other] { $count } cyfr
    }: ruch ma 4 cyfry (5 przy promocji)
parse-not-a-digit = `{ $text }` zawiera `{ $char }`, a to nie jest cyfra: zapisuj ruchy samymi cyframi, np. 5254
parse-not-a-square = { $square } nie jest polem: kolumny i rzędy mają numery od 1 do 8
parse-same-square = `{ $text }` zaczyna się i kończy na polu { $square }: ruch prowadzi z jednego pola na inne
parse-bad-promotion-digit = `{ $text }` kończy się cyfrą { $digit }: cyfra promocji to 1 (hetman), 2 (wieża), 3 (goniec) lub 4 (skoczek)

## Wiadomość bez jasnego polecenia

unclear-intro = Partia { $game }: Twojej wiadomości nie udało się odczytać jako jednego jasnego polecenia, więc nic nie zostało wykonane.
unclear-found = Co znaleziono: { $what }.
unclear-please =
    Odpowiedz, podając tylko swój ruch w notacji numerycznej, np. „{ $number } 5254”,
    albo jedno z poleceń: poddaję się, proponuję remis, przyjmuję remis, odrzucam remis, reklamuję remis, szachownica.
unclear-nothing-found = w Twojej wiadomości nie znaleziono ani ruchu, ani polecenia; napisz ruch w notacji numerycznej w osobnym wierszu, np. 13. 5254
unclear-several-moves = Twoja wiadomość zawiera różne ruchy ({ $moves }); wyślij jeden ruch (jeśli chcesz, z zapisem przed nim, np. 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` wygląda jak ruch, ale nim nie jest: { $error }
unclear-algebraic = `{ $text }` to notacja algebraiczna; ta partia toczy się w notacji numerycznej (np. 5254 zamiast e2-e4), więc ruch nie został przeliczony
unclear-number-in-prose = `{ $text }` stoi w środku zdania i może, ale nie musi być Twoim ruchem; napisz ruch w osobnym wierszu, np. 13. 5254
unclear-vague-draw = `{ $text }`: napisz „proponuję remis”, „przyjmuję remis” albo „odrzucam remis”
unclear-uncertain = `{ $text }` wymienia polecenie, którego nie można cofnąć, ale nie jako jednoznaczne oświadczenie od Ciebie (stoi w pytaniu, w warunku, w cytacie, z przeczeniem, obok słów o kimś innym albo w temacie); jeśli naprawdę o to chodzi, napisz je samo w osobnym wierszu wiadomości (np. „poddaję się”)
unclear-mixed-commands = Twoja wiadomość zawiera więcej niż jedno polecenie ({ $commands }); wysyłaj je pojedynczo
unclear-too-many-commands = Twoja wiadomość zawiera { $count ->
        [one] { $count } ruch lub polecenie
        [few] { $count } ruchy i polecenia
       *[other] { $count } ruchów i poleceń
    }, więcej niż dopuszcza jedna wiadomość ({ $limit }); wyślij sam ruch
unclear-malformed = wiadomości nie udało się odczytać jako e-maila

## Powiadomienia poza grą

too-large =
    Twoja wiadomość ma { $size } bajtów, więcej niż czyta ten sędzia ({ $limit } bajtów), więc nie została przeczytana.
    Wyślij krótką wiadomość w czystym tekście, zawierającą tylko ruch, bez załączników.
help =
    Tu { $name } <{ $address }>, sędzia partii szachowych rozgrywanych korespondencyjnie.

    Ruchy są przyjmowane tylko na Twój własny adres partii, który wygląda tak:
    { $local }+<partia>-<klucz>@{ $domain } i został Ci wysłany przy tworzeniu partii.
    Wystarczy odpowiedzieć na dowolną wiadomość z Twojej partii.

    Ruchy zapisuje się w notacji numerycznej ICCF: pole wyjściowe, a potem docelowe,
    każde pole jako cyfra kolumny, a potem cyfra rzędu (e2-e4 to 5254; roszada to ruch
    króla, 5171; przy promocji dopisuje się 1 hetman, 2 wieża, 3 goniec, 4 skoczek).

    Polecenia: ruch, poddaję się, proponuję remis, przyjmuję remis, odrzucam remis, reklamuję remis, szachownica.
auth-failed =
    Wiadomość do partii { $game } przyszła z Twoim adresem ({ $from }) jako nadawcą, ale serwer pocztowy
    klubu nie potwierdził, że pochodzi od Ciebie ({ $found }). Nie została wykonana.
    Jeśli wiadomość pochodzi od Ciebie, sprawdź, czy Twój dostawca podpisuje pocztę (DKIM) i publikuje DMARC;
    jeśli nie, ktoś próbował wykonać ruch za Ciebie.
auth-found-summary = jego kontrole wykazały: { $summary }
auth-found-nothing = nie znalazł w wiadomości żadnego potwierdzenia nadawcy
stranger =
    Na Twój adres partii { $game } przyszła wiadomość od { $from }, a to nie jest Twój zarejestrowany adres ({ $registered }).
    Nie została wykonana. Ruchy liczą się tylko wtedy, gdy przychodzą z Twojego zarejestrowanego adresu.
    Jeśli to nie Ty, nic nie trzeba robić; jeśli sądzisz, że ktoś inny zna Twój adres partii,
    poproś organizatora o nowy (wildt game rekey).
wrong-address =
    Twoja wiadomość trafiła na adres, który w partii { $game } nie jest Twój, więc nie została wykonana.
    Twój adres w tej partii to:

        { $address }

    Odpowiedz na tę wiadomość, aby na niego trafić.

# conditional
cond-subject = posunięcia warunkowe
cond-subject-prepared = { $move } zagrane z Twoich posunięć warunkowych
cond-intro = Partia { $game }: Twoje posunięcia warunkowe.
cond-stored = Twoje posunięcia warunkowe są zapisane:
cond-cancelled = Twoje posunięcia warunkowe są anulowane; żadne nie są już zapisane.
cond-rejected =
    Twoje posunięcia warunkowe nie zostały przyjęte: { $reason }.
    Twoje wcześniejsze posunięcia warunkowe, jeśli były, pozostają bez zmian.
cond-move-counts = Posunięcie z Twojej wiadomości zostaje mimo to zagrane.
cond-not-considered = Twoje posunięcia warunkowe nie zostały sprawdzone, bo reszta wiadomości nie była jednym jasnym poleceniem; wyślij je ponownie ze swoim posunięciem.
cond-prepared-played = Partia { $game }: przeciwnik zagrał { $opponent }, a Twoja przygotowana odpowiedź { $answer } została od razu zagrana.
cond-prepared-accepted = Partia { $game }: przeciwnik zagrał { $opponent } i zaproponował remis; Twoje posunięcia warunkowe go przyjęły.
cond-remaining = Co zostało z Twoich posunięć warunkowych:
cond-none-remain = Nie zostały żadne posunięcia warunkowe: na następne posunięcie odpowiesz ręcznie.
cond-relay-prepared = Przeciwnik przygotował to posunięcie zawczasu; zostało zagrane, gdy tylko przyszło Twoje.
cond-off-tree = Twoje posunięcia warunkowe nie przewidywały { $opponent }, więc zostały usunięte: odpowiedz ręcznie.
cond-no-offer = Twoja linia warunkowa kończyła się przyjęciem remisu, ale { $opponent } przyszło bez propozycji remisu: nic nie zagrano, a Twoje posunięcia warunkowe się wyczerpały. Odpowiedz ręcznie.
cond-stale = Twoje posunięcia warunkowe nie pasują już do partii, więc zostały usunięte: odpowiedz ręcznie.

# clock
termination-time-forfeit = przekroczenie czasu
subject-clock-reminder = przypomnienie: Twój ruch
subject-clock-low-time = kończy się Twój czas
clock-reminder =
    Partia { $game }: Twój ruch; od nadejścia ruchu przeciwnika minęło dni: { $days }.
    Proszę wysłać ruch; Twój zegar nadal biegnie.
clock-low-time =
    Partia { $game }: na Twoim zegarze zostało już tylko dni: { $days }. Gdy czas się skończy, partia jest przegrana na czas.
clock-days-left = { $color ->
        [white] Białe
       *[black] Czarne
    }: pozostało dni: { $days } na ruchy { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Białe
       *[black] Czarne
    }: pozostało dni: { $days }
termination-adjudication = decyzja sędziego
subject-clock-leave = urlop
subject-clock-ruling = decyzja w sprawie czasu
clock-leave-granted =
    Partia { $game }: { $color ->
            [white] Białe
           *[black] Czarne
        } mają urlop od { $from } do { $to } (oba dni włącznie); ich zegar wtedy nie biegnie.
clock-days-given =
    Partia { $game }: decyzją organizatora zegar strony { $color ->
            [white] Białe
           *[black] Czarne
        } otrzymuje dni: { $days }.
clock-adjudicated =
    Partia { $game } została rozstrzygnięta przez organizatora: { $result }.
    Uzasadnienie: { $reason }
clock-leave-refused = Partia { $game }: urlop nie został zapisany: { $why }.
clock-leave-why-ends-before-start = kończy się ({ $to }) przed początkiem ({ $from })
clock-leave-why-in-past = zaczyna się ({ $from }) przed dniem dzisiejszym ({ $today })
clock-leave-why-overlaps = pokrywa się z urlopem od { $from } do { $to }
clock-leave-why-exceeds = wymaga dni z roku { $year }: { $asked }, a z rocznego limitu ({ $allowance }) zostało tylko: { $remaining }
clock-leave-why-overlaps-organiser = pokrywa się z urlopem od { $from } do { $to }
clock-leave-why-exceeds-organiser = wymaga dni z roku { $year }: { $asked }, a z rocznego limitu ({ $allowance }) zostało tylko: { $remaining }
clock-leave-why-unclear = nie da się odczytać dat; napisz na przykład: urlop 20.12.2026 do 03.01.2027
clock-leave-cancelled = Partia { $game }: urlop strony { $color ->
        [white] Białe
       *[black] Czarne
    } od { $from } został odwołany; zegar znów biegnie.
clock-leave-nothing-to-cancel = Partia { $game }: nie ma trwającego ani przyszłego urlopu do odwołania.

# event
termination-forfeit = walkower
termination-annulled = anulowana przez organizatora
subject-event-welcome = { $event }: twoje partie
event-welcome-intro = Witamy w { $event }, turnieju kołowym (zawodnicy: { $players }; twoje partie: { $games }). Wszystkie twoje partie zaczynają się teraz:
event-welcome-game = Partia { $game }: grasz { $color ->
        [white] białymi
       *[black] czarnymi
    } przeciwko { $opponent } - ruchy wysyłaj na { $address }
event-welcome-outro = Każda partia ma też własny e-mail powitalny: odpowiedz na niego, aby wysyłać ruchy w tej partii.
subject-event-withdrawal = { $event }: zawodnik wycofał się
event-withdrawal-forfeit = { $opponent } wycofał się z { $event }. Twoja partia { $game } z tym zawodnikiem jest zaliczona jako twoja wygrana walkowerem; jest zakończona.
event-withdrawal-annulled = { $opponent } wycofał się z { $event }, zanim zakończył połowę swoich partii; jego nieukończone partie są anulowane. Twoja partia { $game } z tym zawodnikiem nie liczy się dla nikogo; jest zakończona.
event-standing = Tabela { $event }: miejsce { $rank } z { $players }, punkty: { $points }, zakończone partie: { $played }.

## A greeting when the player's name is known

greeting = Dzień dobry, { $name },

## The player chose a language

subject-language-set = język: polski
language-set = Od teraz wildt pisze do Ciebie po polsku. Aby wybrać inny język, odpowiedz wierszem w rodzaju „język: English”.

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Wiadomość od przeciwnika: { $note }
subject-xfcc-password = twoje hasło Xfcc
xfcc-password =
    Twoje nowe hasło do gry z programu szachowego (Xfcc): { $password }
    Nazwa użytkownika: { $user }
    Poprzednie hasło już nie działa. Aby dostać nowe, napisz "xfcc password" na dowolny adres swojej partii.
