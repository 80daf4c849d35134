# wildt: todos os textos que um jogador pode receber, em português.
# Português europeu. Variáveis como em locales/en/wildt.ftl; nunca traduzir lances nem números.

## Assuntos

subject-new-game = nova partida: joga com as { $color ->
        [white] brancas
       *[black] pretas
    } contra { $opponent }
subject-new-address = o seu novo endereço de partida
subject-move-accepted = { $move } aceite
subject-your-move = { $move } - é a sua vez
subject-draw-offer-sent = proposta de empate enviada
subject-draw-offered = proposta de empate
subject-draw-declined = empate recusado
subject-status = posição
subject-not-played = não jogado
subject-game-over = partida terminada { $result }
subject-too-large = mensagem grande demais
subject-how-to-play = como jogar
subject-security = uma mensagem não foi jogada
subject-wrong-address = endereço de partida errado
subject-not-understood = não compreendido

## Início da partida

welcome-intro = Partida { $game }: joga com as { $color ->
        [white] brancas
       *[black] pretas
    } contra { $opponent }.
welcome-intro-event = Partida { $game } ({ $event }): joga com as { $color ->
        [white] brancas
       *[black] pretas
    } contra { $opponent }.
welcome-address = O seu endereço para esta partida é { $address } - basta responder a este e-mail.
notation-explained =
    Os lances escrevem-se em notação numérica ICCF: casa de partida e depois casa de chegada, cada casa
    dada pelo algarismo da coluna e depois pelo da fila (e2-e4 é 5254; o roque é o lance do rei, 5171;
    numa promoção acrescenta-se 1 dama, 2 torre, 3 bispo, 4 cavalo).
new-address =
    O organizador atribuiu-lhe um novo endereço para a partida { $game } (joga com as { $color ->
        [white] brancas
       *[black] pretas
    } contra { $opponent }).
    O seu endereço para esta partida passa a ser { $address } - basta responder a este e-mail.
    As mensagens enviadas para o endereço antigo deixam de ser jogadas.

## Tabuleiro, lances, situação

record-line = Lances: { $record }
record-empty = Lances: (ainda nenhum)
status-to-move = Jogam as { $color ->
        [white] brancas
       *[black] pretas
    } ({ $number })
status-to-move-draw-offered = Jogam as { $color ->
        [white] brancas
       *[black] pretas
    } ({ $number }); as { $offerer ->
        [white] brancas
       *[black] pretas
    } propuseram empate
status-game-over = Partida terminada: { $result } ({ $termination })
board-legend = peças com letras inglesas: K rei, Q dama, R torre, B bispo, N cavalo, P peão; maiúsculas para as brancas
board-caption = { $color ->
        [white] O tabuleiro visto do lado das brancas
       *[black] O tabuleiro visto do lado das pretas
    }
record-heading = Lances
column-white = Brancas
column-black = Pretas

## Fim da partida

termination-checkmate = xeque-mate
termination-stalemate = afogamento
termination-insufficient-material = material insuficiente
termination-resignation = abandono
termination-draw-agreed = empate por acordo
termination-threefold-repetition = tripla repetição
termination-fifty-move-rule = regra dos 50 lances

## Como responder

footer-your-move =
    Responda a este e-mail com o seu lance em notação numérica, por exemplo «{ $number } { $example }».
    Outros comandos: abandono, proponho empate, aceito empate, recuso empate, reivindico empate, tabuleiro.
footer-wait = Receberá o lance do seu adversário por e-mail.

## Decisões

moved-mine = Partida { $game }: o seu lance { $move } ({ $san }) foi registado.
moved-mine-draw-offer = A sua proposta de empate foi transmitida.
moved-theirs = Partida { $game }: as { $color ->
        [white] brancas
       *[black] pretas
    } jogaram { $move } ({ $san }).
moved-theirs-draw-offer = Com este lance o seu adversário propõe empate: responda «aceito empate», ou envie simplesmente o seu lance para recusar.
ended-resigned = As { $color ->
        [white] brancas
       *[black] pretas
    } abandonaram.
ended-draw-accepted = As { $color ->
        [white] brancas
       *[black] pretas
    } aceitaram o empate.
ended-draw-claimed = As { $color ->
        [white] brancas
       *[black] pretas
    } reivindicaram o empate ({ $termination }); a reivindicação é válida.
draw-offer-sent = Partida { $game }: a sua proposta de empate foi transmitida ao seu adversário.
draw-offered =
    Partida { $game }: as { $color ->
        [white] brancas
       *[black] pretas
    } propõem empate.
    Responda «aceito empate» ou «recuso empate»; um lance também recusa a proposta.
draw-declined-mine = Partida { $game }: recusou a proposta de empate.
draw-declined-theirs = Partida { $game }: as { $color ->
        [white] brancas
       *[black] pretas
    } recusaram a sua proposta de empate. A partida continua.
status-intro = Partida { $game }: a posição atual.
rejected-intro = Partida { $game }: a sua mensagem não foi jogada.
rejected-reason = Motivo: { $reason }.
rejected-what-to-do = O que fazer: { $todo }
game-over-body = A partida { $game } terminou: { $result } ({ $termination }).
game-over-thanks = Obrigado pela partida.

## O que fazer depois de uma recusa

todo-game-over = nada: a partida terminou. Peça uma nova partida ao organizador.
todo-wait = aguarde o lance do seu adversário; chegará por e-mail.
todo-compare-records = compare os seus lances com os que estão abaixo e envie o seu lance como «{ $number } <lance>».
todo-compare-records-later = compare os seus lances com os que estão abaixo e envie o seu lance como «{ $number } <lance>» quando for a sua vez.
todo-send-one = envie apenas o seu lance para { $number }.
todo-send-if-yours = envie «{ $number } { $move }» se for esse o seu lance.
todo-choose-promotion = envie um destes lances: { $options } (5.º algarismo: 1 dama, 2 torre, 3 bispo, 4 cavalo).
todo-send-legal = envie um lance legal para { $number }; o tabuleiro está abaixo.
todo-offer-draw-yourself = para propor empate, escreva «proponho empate» (junto com o seu lance, se quiser).
todo-play-on = continue a jogar: envie o seu lance.

## Porque é que um comando não foi executado

reject-game-over = a partida terminou ({ $result }, { $termination }): já não são aceites lances
reject-not-your-turn = jogam as { $color ->
        [white] brancas
       *[black] pretas
    }: aguarde o lance do seu adversário
reject-wrong-number = escreveu o lance { $given }, mas a partida está no lance { $expected } (jogam as { $color ->
        [white] brancas
       *[black] pretas
    }): os dois registos de lances não coincidem
reject-echo-mismatch = no lance { $number } escreveu { $given }, mas o registo tem { $recorded }: os dois registos de lances não coincidem
reject-several-new-moves = a sua mensagem contém { $count ->
        [one] { $count } lance novo
       *[other] { $count } lances novos
    } ({ $moves }): envie um lance de cada vez
reject-already-recorded = { $number } { $move } já está registado: envie o seu próximo lance
reject-illegal = { $number } { $move } não é possível: { $why }
reject-no-draw-offer = o seu adversário não propôs empate, por isso não há nada a que responder
reject-own-draw-offer = a proposta de empate é sua: só o seu adversário a pode aceitar
reject-claim-refused = não é possível reivindicar o empate: a posição ocorreu { $repetitions ->
        [one] uma vez
       *[other] { $repetitions } vezes
    } (são precisas 3) e { $moves ->
        [one] foi feito { $moves } lance
       *[other] foram feitos { $moves } lances
    } sem captura nem movimento de peão (são precisos 50)

## Porque é que um lance não é legal

illegal-no-piece = não há nenhuma peça em { $square }
illegal-opponents-piece = a peça em { $square } pertence às { $color ->
        [white] pretas, e jogam as brancas
       *[black] brancas, e jogam as pretas
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] o rei
        [queen] a dama
        [rook] a torre
        [bishop] o bispo
        [knight] o cavalo
       *[pawn] o peão
    } em { $from } não pode chegar a { $to }; neste momento não tem nenhum lance legal
illegal-cannot-reach-moves = { $piece ->
        [king] o rei
        [queen] a dama
        [rook] a torre
        [bishop] o bispo
        [knight] o cavalo
       *[pawn] o peão
    } em { $from } não pode chegar a { $to }; os seus lances legais são { $moves }
illegal-leaves-king-in-check = { $move } deixaria o seu rei em { $king } em xeque
illegal-castling = o roque { $move } não é possível agora: { $reason }
castling-right-lost = o rei ou essa torre já se moveu
castling-piece-in-the-way = há uma peça no caminho, em { $square }
castling-in-check = o rei está em xeque
castling-square-attacked = o rei passaria por { $square } ou chegaria a essa casa, que está atacada
illegal-promotion-digit-missing = um peão que chega à última fila precisa de um 5.º algarismo (1 dama, 2 torre, 3 bispo, 4 cavalo): { $options }
illegal-promotion-digit-not-allowed = { $move } não é uma promoção, por isso não leva 5.º algarismo: escreva { $without }
illegal-old-promotion-form = { $given } é a antiga forma de promoção com 4 algarismos; a forma padrão é { $standard }: envie { $standard } se for esse o seu lance

## Porque é que um texto não é um lance

parse-wrong-length = `{ $text }` tem { $count ->
        [one] { $count } algarismo
       *[other] { $count } algarismos
    }: um lance tem 4 algarismos (5 numa promoção)
parse-not-a-digit = `{ $text }` contém `{ $char }`, que não é um algarismo: escreva os lances só com algarismos, por exemplo 5254
parse-not-a-square = { $square } não é uma casa: colunas e filas vão de 1 a 8
parse-same-square = `{ $text }` começa e acaba em { $square }: um lance vai de uma casa para outra
parse-bad-promotion-digit = `{ $text }` acaba em { $digit }: o algarismo de promoção é 1 (dama), 2 (torre), 3 (bispo) ou 4 (cavalo)

## Uma mensagem sem um comando claro

unclear-intro = Partida { $game }: não foi possível ler a sua mensagem como um comando claro, por isso nada foi jogado.
unclear-found = O que foi encontrado: { $what }.
unclear-please =
    Responda apenas com o seu lance em notação numérica, por exemplo «{ $number } 5254»,
    ou com um destes comandos: abandono, proponho empate, aceito empate, recuso empate, reivindico empate, tabuleiro.
unclear-nothing-found = não foi encontrado nenhum lance nem comando na sua mensagem; escreva o lance em notação numérica numa linha à parte, por exemplo 13. 5254
unclear-several-moves = a sua mensagem contém lances diferentes ({ $moves }); envie um só lance (com os lances anteriores, se quiser, por exemplo 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` parece um lance, mas não é: { $error }
unclear-algebraic = `{ $text }` está em notação algébrica; esta partida joga-se em notação numérica (por exemplo 5254 para e2-e4), por isso não foi convertido
unclear-number-in-prose = `{ $text }` está no meio de uma frase e pode ou não ser o seu lance; escreva o lance numa linha à parte, por exemplo 13. 5254
unclear-vague-draw = `{ $text }`: escreva «proponho empate», «aceito empate» ou «recuso empate»
unclear-uncertain = `{ $text }` menciona um comando que não pode ser desfeito, mas não como uma declaração clara sua (aparece numa pergunta, numa condição, numa citação, com uma negação, junto de palavras sobre outra pessoa ou no assunto); se é isso que pretende, escreva-o sozinho numa linha da mensagem, por exemplo «abandono»
unclear-mixed-commands = a sua mensagem contém mais de um comando ({ $commands }); envie-os um de cada vez
unclear-too-many-commands = a sua mensagem contém { $count } lances e comandos, mais do que os { $limit } permitidos por mensagem; envie só o seu lance
unclear-malformed = não foi possível ler a mensagem como um e-mail

## Avisos fora do jogo

too-large =
    A sua mensagem de { $size } bytes é maior do que aquilo que este árbitro lê ({ $limit } bytes), por isso não foi lida.
    Envie um e-mail curto em texto simples só com o seu lance, sem anexos.
help =
    Fala { $name } <{ $address }>, um árbitro de xadrez por correspondência.

    Os lances só são aceites no seu próprio endereço de partida, que tem a forma
    { $local }+<partida>-<chave>@{ $domain } e lhe foi enviado quando a partida foi criada.
    Basta responder a qualquer e-mail da sua partida.

    Os lances escrevem-se em notação numérica ICCF: casa de partida e depois casa de chegada,
    cada casa dada pelo algarismo da coluna e depois pelo da fila (e2-e4 é 5254; o roque é o
    lance do rei, 5171; numa promoção acrescenta-se 1 dama, 2 torre, 3 bispo, 4 cavalo).

    Comandos: um lance, abandono, proponho empate, aceito empate, recuso empate, reivindico empate, tabuleiro.
auth-failed =
    Chegou uma mensagem para a partida { $game } com o seu endereço ({ $from }) como remetente, mas o servidor
    de correio do clube não conseguiu confirmar que foi enviada por si ({ $found }). Não foi jogada.
    Se foi enviada por si, verifique se o seu fornecedor assina o seu correio (DKIM) e publica DMARC;
    caso contrário, alguém tentou jogar em seu nome.
auth-found-summary = as verificações indicaram: { $summary }
auth-found-nothing = não encontrou na mensagem nenhuma prova do remetente
stranger =
    Chegou ao seu endereço da partida { $game } uma mensagem de { $from }, que não é o seu endereço registado ({ $registered }).
    Não foi jogada. Os lances só contam quando enviados do seu endereço registado.
    Se não foi enviada por si, não é preciso fazer nada; se acha que outra pessoa conhece o seu endereço de partida,
    peça um novo ao organizador (wildt game rekey).
wrong-address =
    A sua mensagem foi enviada para um endereço que não é o seu na partida { $game }, por isso não foi jogada.
    O seu endereço para esta partida é:

        { $address }

    Responda a este e-mail para o usar.

# conditional
cond-subject = lances condicionais
cond-subject-prepared = { $move } jogado a partir dos seus lances condicionais
cond-intro = Partida { $game }: os seus lances condicionais.
cond-stored = Os seus lances condicionais estão guardados:
cond-cancelled = Os seus lances condicionais foram cancelados; não há nenhum guardado agora.
cond-rejected =
    Os seus lances condicionais não foram aceites: { $reason }.
    Os seus lances condicionais anteriores, se houver, ficam como estavam.
cond-move-counts = O lance da sua mensagem é jogado na mesma.
cond-not-considered = Os seus lances condicionais não foram examinados porque o resto da mensagem não era uma ordem clara; envie-os de novo com o seu lance.
cond-prepared-played = Partida { $game }: o adversário jogou { $opponent } e a sua resposta preparada { $answer } foi jogada de imediato.
cond-prepared-accepted = Partida { $game }: o adversário jogou { $opponent } e propôs empate; os seus lances condicionais aceitaram-no.
cond-remaining = O que resta dos seus lances condicionais:
cond-none-remain = Não restam lances condicionais: responderá ao próximo lance à mão.
cond-relay-prepared = O adversário tinha preparado este lance com antecedência; foi jogado assim que o seu lance chegou.
cond-off-tree = Os seus lances condicionais não previam { $opponent }, por isso foram apagados: responda à mão.
cond-no-offer = A sua linha condicional terminava aceitando o empate, mas { $opponent } veio sem proposta de empate: nada foi jogado e os seus lances condicionais esgotaram-se. Responda à mão.
cond-stale = Os seus lances condicionais já não correspondem à partida, por isso foram apagados: responda à mão.

# clock
termination-time-forfeit = tempo esgotado
subject-clock-reminder = lembrete: é a sua vez
subject-clock-low-time = o seu tempo está a acabar
clock-reminder =
    Partida { $game }: é a sua vez, e passaram { $days } dias desde que chegou o lance do seu adversário.
    Envie o seu lance, por favor; o seu relógio continua a correr.
clock-low-time =
    Partida { $game }: restam apenas { $days } dias no seu relógio. Se se esgotarem, a partida está perdida por tempo.
clock-days-left = { $color ->
        [white] Brancas
       *[black] Pretas
    }: restam { $days } dias para os lances { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Brancas
       *[black] Pretas
    }: restam { $days } dias
termination-adjudication = decisão do árbitro
subject-clock-leave = licença
subject-clock-ruling = decisão sobre o relógio
clock-leave-granted =
    Partida { $game }: { $color ->
            [white] as Brancas
           *[black] as Pretas
        } estão de licença de { $from } a { $to } (ambos os dias incluídos); o seu relógio não corre nesse período.
clock-days-given =
    Partida { $game }: por decisão do organizador, o relógio d{ $color ->
            [white] as Brancas
           *[black] as Pretas
        } recebe { $days } dias.
clock-adjudicated =
    A partida { $game } foi decidida pelo organizador: { $result }.
    Motivo: { $reason }
clock-leave-refused = Partida { $game }: a sua licença não foi registada: { $why }.
clock-leave-why-ends-before-start = termina ({ $to }) antes de começar ({ $from })
clock-leave-why-in-past = começa ({ $from }) antes de hoje ({ $today })
clock-leave-why-overlaps = sobrepõe-se à sua licença de { $from } a { $to }
clock-leave-why-exceeds = ocupa { $asked } dias de { $year }, mas dos seus { $allowance } dias por ano só restam { $remaining }
clock-leave-why-overlaps-organiser = sobrepõe-se à licença de { $from } a { $to }
clock-leave-why-exceeds-organiser = ocupa { $asked } dias de { $year }, mas dos { $allowance } dias por ano só restam { $remaining }
clock-leave-why-unclear = as datas não se conseguem ler; escreva, por exemplo: licença 20.12.2026 a 03.01.2027
clock-leave-cancelled = Partida { $game }: a licença de { $color ->
        [white] as Brancas
       *[black] as Pretas
    } a partir de { $from } foi cancelada; o relógio volta a correr.
clock-leave-nothing-to-cancel = Partida { $game }: não há nenhuma licença atual ou futura para cancelar.

# event
termination-forfeit = W.O.
termination-annulled = anulada pelo organizador
subject-event-welcome = { $event }: as suas partidas
event-welcome-intro = Bem-vindo a { $event }, um torneio de todos contra todos (jogadores: { $players }; as suas partidas: { $games }). Todas as suas partidas começam agora:
event-welcome-game = Partida { $game }: joga com as { $color ->
        [white] brancas
       *[black] pretas
    } contra { $opponent } - envie os lances para { $address }
event-welcome-outro = Cada partida tem também o seu próprio e-mail de boas-vindas: responda a esse e-mail para enviar os seus lances nessa partida.
subject-event-withdrawal = { $event }: um jogador desistiu
event-withdrawal-forfeit = { $opponent } desistiu de { $event }. A sua partida { $game } contra este jogador conta como vitória sua por W.O.; terminou.
event-withdrawal-annulled = { $opponent } desistiu de { $event } antes de terminar metade das suas partidas; as partidas em curso são anuladas. A sua partida { $game } contra este jogador não conta para ninguém; terminou.
event-standing = Classificação em { $event }: lugar { $rank } de { $players }, pontos: { $points }, partidas terminadas: { $played }.

## A greeting when the player's name is known

greeting = Olá, { $name },

## The player chose a language

subject-language-set = língua: português
language-set = A partir de agora, o wildt escreve-lhe em português. Para escolher outra língua, responda com uma linha como «língua: English».

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Mensagem do seu adversário: { $note }
subject-xfcc-password = a sua senha Xfcc
xfcc-password =
    A sua nova senha para jogar a partir de um programa de xadrez (Xfcc): { $password }
    Utilizador: { $user }
    A senha anterior deixou de funcionar. Para obter outra, escreva "xfcc password" para qualquer um dos seus endereços de partida.
