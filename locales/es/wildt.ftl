# wildt: todos los textos que puede recibir un jugador, en español.
# Variables como en locales/en/wildt.ftl; nunca traducir jugadas ni números.

## Asuntos

subject-new-game = nueva partida: juega con { $color ->
        [white] blancas
       *[black] negras
    } contra { $opponent }
subject-new-address = su nueva dirección de partida
subject-move-accepted = { $move } aceptada
subject-your-move = { $move } - le toca jugar
subject-draw-offer-sent = oferta de tablas enviada
subject-draw-offered = oferta de tablas
subject-draw-declined = tablas rechazadas
subject-status = posición
subject-not-played = no jugado
subject-game-over = partida terminada { $result }
subject-too-large = mensaje demasiado grande
subject-how-to-play = cómo jugar
subject-security = un mensaje no se ha jugado
subject-wrong-address = dirección de partida equivocada
subject-not-understood = no entendido

## Comienzo de la partida

welcome-intro = Partida { $game }: juega con { $color ->
        [white] blancas
       *[black] negras
    } contra { $opponent }.
welcome-intro-event = Partida { $game } ({ $event }): juega con { $color ->
        [white] blancas
       *[black] negras
    } contra { $opponent }.
welcome-address = Su dirección para esta partida es { $address }; basta con responder a este correo.
notation-explained =
    Las jugadas se escriben en notación numérica ICCF: casilla de salida y casilla de llegada,
    cada una con la cifra de la columna y luego la de la fila (e2-e4 es 5254; el enroque es la
    jugada del rey, 5171; en una coronación se añade 1 dama, 2 torre, 3 alfil, 4 caballo).
new-address =
    El organizador le ha asignado una nueva dirección para la partida { $game } (juega con { $color ->
        [white] blancas
       *[black] negras
    } contra { $opponent }).
    Su dirección para esta partida es ahora { $address }; basta con responder a este correo.
    Los mensajes enviados a su dirección anterior ya no se juegan.

## Tablero, planilla, situación

record-line = Planilla: { $record }
record-empty = Planilla: (todavía sin jugadas)
status-to-move = Juegan las { $color ->
        [white] blancas
       *[black] negras
    } ({ $number })
status-to-move-draw-offered = Juegan las { $color ->
        [white] blancas
       *[black] negras
    } ({ $number }); las { $offerer ->
        [white] blancas han
       *[black] negras han
    } ofrecido tablas
status-game-over = Partida terminada: { $result } ({ $termination })
board-legend = piezas con letras inglesas: K rey, Q dama, R torre, B alfil, N caballo, P peón; mayúsculas para las blancas
board-caption = { $color ->
        [white] El tablero visto desde el lado de las blancas
       *[black] El tablero visto desde el lado de las negras
    }
record-heading = Planilla
column-white = Blancas
column-black = Negras

## Final de la partida

termination-checkmate = jaque mate
termination-stalemate = ahogado
termination-insufficient-material = material insuficiente
termination-resignation = abandono
termination-draw-agreed = tablas de mutuo acuerdo
termination-threefold-repetition = triple repetición
termination-fifty-move-rule = regla de las 50 jugadas

## Cómo responder

footer-your-move =
    Responda a este correo con su jugada en notación numérica, por ejemplo «{ $number } { $example }».
    Otras órdenes: abandono, ofrezco tablas, acepto tablas, rechazo tablas, reclamo tablas, tablero.
footer-wait = Recibirá la jugada de su rival por correo.

## Decisiones

moved-mine = Partida { $game }: su jugada { $move } ({ $san }) ha quedado registrada.
moved-mine-draw-offer = Su oferta de tablas ha sido transmitida.
moved-theirs = Partida { $game }: { $color ->
        [white] las blancas han
       *[black] las negras han
    } jugado { $move } ({ $san }).
moved-theirs-draw-offer = Con esta jugada su rival ofrece tablas: responda «acepto tablas», o simplemente envíe su jugada para rechazarlas.
ended-resigned = { $color ->
        [white] Las blancas han
       *[black] Las negras han
    } abandonado.
ended-draw-accepted = { $color ->
        [white] Las blancas han
       *[black] Las negras han
    } aceptado las tablas.
ended-draw-claimed = { $color ->
        [white] Las blancas han
       *[black] Las negras han
    } reclamado tablas ({ $termination }); la reclamación es correcta.
draw-offer-sent = Partida { $game }: su oferta de tablas ha sido transmitida a su rival.
draw-offered =
    Partida { $game }: { $color ->
        [white] las blancas ofrecen
       *[black] las negras ofrecen
    } tablas.
    Responda «acepto tablas» o «rechazo tablas»; una jugada también las rechaza.
draw-declined-mine = Partida { $game }: ha rechazado la oferta de tablas.
draw-declined-theirs = Partida { $game }: { $color ->
        [white] las blancas han
       *[black] las negras han
    } rechazado su oferta de tablas. La partida continúa.
status-intro = Partida { $game }: la posición actual.
rejected-intro = Partida { $game }: su mensaje no se ha jugado.
rejected-reason = Motivo: { $reason }.
rejected-what-to-do = Qué hacer: { $todo }
game-over-body = La partida { $game } ha terminado: { $result } ({ $termination }).
game-over-thanks = Gracias por la partida.

## Qué hacer tras un rechazo

todo-game-over = nada: la partida ha terminado. Pida una nueva partida al organizador.
todo-wait = espere la jugada de su rival; le llegará por correo.
todo-compare-records = compare su planilla con la de abajo y envíe su jugada como «{ $number } <jugada>».
todo-compare-records-later = compare su planilla con la de abajo y envíe su jugada como «{ $number } <jugada>» cuando le toque.
todo-send-one = envíe solo su jugada para { $number }.
todo-send-if-yours = envíe «{ $number } { $move }» si esa es su jugada.
todo-choose-promotion = envíe una de estas jugadas: { $options } (5.ª cifra: 1 dama, 2 torre, 3 alfil, 4 caballo).
todo-send-legal = envíe una jugada legal para { $number }; el tablero está abajo.
todo-offer-draw-yourself = para ofrecer tablas usted, escriba «ofrezco tablas» (junto con su jugada, si quiere).
todo-play-on = siga jugando: envíe su jugada.

## Por qué no se ejecutó una orden

reject-game-over = la partida ha terminado ({ $result }, { $termination }): ya no se aceptan jugadas
reject-not-your-turn = les toca jugar a { $color ->
        [white] las blancas
       *[black] las negras
    }: espere la jugada de su rival
reject-wrong-number = ha escrito la jugada { $given }, pero la partida va por la jugada { $expected } (juegan { $color ->
        [white] blancas
       *[black] negras
    }): las dos planillas no coinciden
reject-echo-mismatch = en la jugada { $number } ha escrito { $given }, pero en la planilla figura { $recorded }: las dos planillas no coinciden
reject-several-new-moves = su mensaje contiene { $count ->
        [one] { $count } jugada nueva
       *[other] { $count } jugadas nuevas
    } ({ $moves }): envíe una sola jugada cada vez
reject-already-recorded = { $number } { $move } ya figura en la planilla: envíe su siguiente jugada
reject-illegal = { $number } { $move } no es posible: { $why }
reject-no-draw-offer = su rival no ha ofrecido tablas, así que no hay nada que responder
reject-own-draw-offer = la oferta de tablas es suya: solo su rival puede aceptarla
reject-claim-refused = no se pueden reclamar tablas: la posición se ha repetido { $repetitions ->
        [one] una vez
       *[other] { $repetitions } veces
    } (hacen falta 3) y { $moves ->
        [one] se ha hecho { $moves } jugada
       *[other] se han hecho { $moves } jugadas
    } sin captura ni movimiento de peón (hacen falta 50)

## Por qué una jugada no es legal

illegal-no-piece = no hay ninguna pieza en { $square }
illegal-opponents-piece = la pieza en { $square } es de las { $color ->
        [white] negras, y juegan blancas
       *[black] blancas, y juegan negras
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] el rey
        [queen] la dama
        [rook] la torre
        [bishop] el alfil
        [knight] el caballo
       *[pawn] el peón
    } en { $from } no puede llegar a { $to }; ahora no tiene ninguna jugada legal
illegal-cannot-reach-moves = { $piece ->
        [king] el rey
        [queen] la dama
        [rook] la torre
        [bishop] el alfil
        [knight] el caballo
       *[pawn] el peón
    } en { $from } no puede llegar a { $to }; sus jugadas legales son { $moves }
illegal-leaves-king-in-check = { $move } dejaría en jaque a su rey, que está en { $king }
illegal-castling = el enroque { $move } no es posible ahora: { $reason }
castling-right-lost = el rey o esa torre ya se han movido
castling-piece-in-the-way = hay una pieza en medio, en { $square }
castling-in-check = el rey está en jaque
castling-square-attacked = el rey pasaría por { $square } o llegaría a esa casilla, que está atacada
illegal-promotion-digit-missing = un peón que llega a la última fila necesita una 5.ª cifra (1 dama, 2 torre, 3 alfil, 4 caballo): { $options }
illegal-promotion-digit-not-allowed = { $move } no es una coronación, así que no lleva 5.ª cifra: escriba { $without }
illegal-old-promotion-form = { $given } es la antigua forma de coronación con 4 cifras; la forma estándar es { $standard }: envíe { $standard } si esa es su jugada

## Por qué un texto no es una jugada

parse-wrong-length = `{ $text }` tiene { $count ->
        [one] { $count } cifra
       *[other] { $count } cifras
    }: una jugada tiene 4 cifras (5 en una coronación)
parse-not-a-digit = `{ $text }` contiene `{ $char }`, que no es una cifra: escriba las jugadas solo con cifras, por ejemplo 5254
parse-not-a-square = { $square } no es una casilla: columnas y filas van del 1 al 8
parse-same-square = `{ $text }` empieza y termina en { $square }: una jugada va de una casilla a otra
parse-bad-promotion-digit = `{ $text }` termina en { $digit }: la cifra de coronación es 1 (dama), 2 (torre), 3 (alfil) o 4 (caballo)

## Un mensaje sin una orden clara

unclear-intro = Partida { $game }: su mensaje no se ha podido leer como una orden clara, así que no se ha jugado nada.
unclear-found = Lo que se ha encontrado: { $what }.
unclear-please =
    Responda solo con su jugada en notación numérica, por ejemplo «{ $number } 5254»,
    o con una de estas órdenes: abandono, ofrezco tablas, acepto tablas, rechazo tablas, reclamo tablas, tablero.
unclear-nothing-found = no se ha encontrado ninguna jugada ni orden en su mensaje; escriba la jugada en notación numérica en una línea aparte, por ejemplo 13. 5254
unclear-several-moves = su mensaje contiene jugadas distintas ({ $moves }); envíe una sola jugada (con la planilla delante, si quiere, por ejemplo 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` parece una jugada, pero no lo es: { $error }
unclear-algebraic = `{ $text }` está en notación algebraica; esta partida se juega en notación numérica (por ejemplo 5254 para e2-e4), así que no se ha convertido
unclear-number-in-prose = `{ $text }` está dentro de una frase y puede ser o no su jugada; escriba la jugada en una línea aparte, por ejemplo 13. 5254
unclear-vague-draw = `{ $text }`: escriba «ofrezco tablas», «acepto tablas» o «rechazo tablas»
unclear-uncertain = `{ $text }` menciona una orden que no se puede deshacer, pero no como una declaración clara suya (aparece en una pregunta, una condición, una cita, con una negación, junto a palabras sobre otra persona o en el asunto); si es lo que quiere, escríbala sola en una línea del mensaje, por ejemplo «abandono»
unclear-mixed-commands = su mensaje contiene más de una orden ({ $commands }); envíelas de una en una
unclear-too-many-commands = su mensaje contiene { $count } jugadas y órdenes, más de las { $limit } que admite un mensaje; envíe su jugada sola
unclear-malformed = el mensaje no se ha podido leer como un correo electrónico

## Avisos fuera del juego

too-large =
    Su mensaje de { $size } bytes supera lo que lee este árbitro ({ $limit } bytes), así que no se ha leído.
    Envíe un correo breve en texto plano con solo su jugada, sin archivos adjuntos.
help =
    Le escribe { $name } <{ $address }>, un árbitro de ajedrez por correspondencia.

    Las jugadas solo se aceptan en su propia dirección de partida, que tiene la forma
    { $local }+<partida>-<clave>@{ $domain } y que recibió al crearse su partida.
    Basta con responder a cualquier correo de su partida.

    Las jugadas se escriben en notación numérica ICCF: casilla de salida y casilla de llegada,
    cada una con la cifra de la columna y luego la de la fila (e2-e4 es 5254; el enroque es la
    jugada del rey, 5171; en una coronación se añade 1 dama, 2 torre, 3 alfil, 4 caballo).

    Órdenes: una jugada, abandono, ofrezco tablas, acepto tablas, rechazo tablas, reclamo tablas, tablero.
auth-failed =
    Ha llegado un mensaje para la partida { $game } con su dirección ({ $from }) como remitente, pero el servidor
    de correo del club no ha podido confirmar que lo enviara usted ({ $found }). No se ha jugado.
    Si lo envió usted, compruebe que su proveedor firma sus correos (DKIM) y publica DMARC;
    si no, alguien ha intentado jugar en su lugar.
auth-found-summary = sus comprobaciones dijeron: { $summary }
auth-found-nothing = no encontró en el mensaje ninguna prueba del remitente
stranger =
    Ha llegado a su dirección de la partida { $game } un mensaje de { $from }, que no es su dirección registrada ({ $registered }).
    No se ha jugado. Las jugadas solo cuentan si se envían desde su dirección registrada.
    Si no fue usted, no hace falta hacer nada; si cree que otra persona conoce su dirección de partida,
    pida una nueva al organizador (wildt game rekey).
wrong-address =
    Su mensaje se envió a una dirección que no es la suya para la partida { $game }, así que no se ha jugado.
    Su dirección para esta partida es:

        { $address }

    Responda a este correo para llegar a ella.

# conditional
cond-subject = jugadas condicionales
cond-subject-prepared = { $move } jugada desde sus jugadas condicionales
cond-intro = Partida { $game }: sus jugadas condicionales.
cond-stored = Sus jugadas condicionales están guardadas:
cond-cancelled = Sus jugadas condicionales están canceladas; ya no hay ninguna guardada.
cond-rejected =
    Sus jugadas condicionales no fueron aceptadas: { $reason }.
    Sus jugadas condicionales anteriores, si las hay, siguen igual.
cond-move-counts = La jugada de su mensaje se juega de todos modos.
cond-not-considered = Sus jugadas condicionales no se examinaron porque el resto de su mensaje no era una orden clara; envíelas de nuevo con su jugada.
cond-prepared-played = Partida { $game }: su rival jugó { $opponent } y su respuesta preparada { $answer } se jugó al instante.
cond-prepared-accepted = Partida { $game }: su rival jugó { $opponent } y ofreció tablas; sus jugadas condicionales las aceptaron.
cond-remaining = Lo que queda de sus jugadas condicionales:
cond-none-remain = No quedan jugadas condicionales: responderá a la próxima jugada a mano.
cond-relay-prepared = Su rival había preparado esta jugada de antemano; se jugó en cuanto llegó su jugada.
cond-off-tree = Sus jugadas condicionales no preveían { $opponent }, así que se borran: responda a mano.
cond-no-offer = Su línea condicional terminaba aceptando tablas, pero { $opponent } llegó sin oferta de tablas: no se jugó nada y sus jugadas condicionales se agotaron. Responda a mano.
cond-stale = Sus jugadas condicionales ya no encajan con la partida, así que se borran: responda a mano.

# clock
termination-time-forfeit = tiempo agotado
subject-clock-reminder = recordatorio: le toca jugar
subject-clock-low-time = se le acaba el tiempo
clock-reminder =
    Partida { $game }: le toca jugar y han pasado { $days } días desde que llegó la jugada de su rival.
    Envíe su jugada, por favor; su reloj sigue corriendo.
clock-low-time =
    Partida { $game }: solo le quedan { $days } días en el reloj. Si se agota, la partida se pierde por tiempo.
clock-days-left = { $color ->
        [white] Blancas
       *[black] Negras
    }: quedan { $days } días para las jugadas { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Blancas
       *[black] Negras
    }: quedan { $days } días
termination-adjudication = decisión del árbitro
subject-clock-leave = permiso
subject-clock-ruling = decisión sobre el reloj
clock-leave-granted =
    Partida { $game }: { $color ->
            [white] las Blancas
           *[black] las Negras
        } están de permiso del { $from } al { $to } (ambos días incluidos); su reloj no corre entonces.
clock-days-given =
    Partida { $game }: por decisión del organizador, el reloj de { $color ->
            [white] las Blancas
           *[black] las Negras
        } recibe { $days } días.
clock-adjudicated =
    La partida { $game } fue decidida por el organizador: { $result }.
    Motivo: { $reason }
clock-leave-refused = Partida { $game }: su permiso no se registró: { $why }.
clock-leave-why-ends-before-start = termina ({ $to }) antes de empezar ({ $from })
clock-leave-why-in-past = empieza ({ $from }) antes de hoy ({ $today })
clock-leave-why-overlaps = se solapa con su permiso del { $from } al { $to }
clock-leave-why-exceeds = ocupa { $asked } días de { $year }, pero solo le quedan { $remaining } de sus { $allowance } días al año
clock-leave-why-overlaps-organiser = se solapa con el permiso del { $from } al { $to }
clock-leave-why-exceeds-organiser = ocupa { $asked } días de { $year }, pero solo quedan { $remaining } de los { $allowance } días al año
clock-leave-why-unclear = no se pueden leer sus fechas; escriba, por ejemplo: permiso 20.12.2026 al 03.01.2027
clock-leave-cancelled = Partida { $game }: el permiso de { $color ->
        [white] las Blancas
       *[black] las Negras
    } desde el { $from } queda anulado; el reloj vuelve a correr.
clock-leave-nothing-to-cancel = Partida { $game }: no hay ningún permiso actual o próximo que anular.

# event
termination-forfeit = incomparecencia
termination-annulled = anulada por el organizador
subject-event-welcome = { $event }: sus partidas
event-welcome-intro = Bienvenido a { $event }, un torneo de todos contra todos (jugadores: { $players }; sus partidas: { $games }). Todas sus partidas empiezan ahora:
event-welcome-game = Partida { $game }: juega con { $color ->
        [white] blancas
       *[black] negras
    } contra { $opponent } - envíe sus jugadas a { $address }
event-welcome-outro = Cada partida tiene además su propio correo de bienvenida: responda a ese correo para enviar sus jugadas en esa partida.
subject-event-withdrawal = { $event }: un jugador se ha retirado
event-withdrawal-forfeit = { $opponent } se ha retirado de { $event }. Su partida { $game } contra este jugador se cuenta como ganada por usted por incomparecencia; ha terminado.
event-withdrawal-annulled = { $opponent } se ha retirado de { $event } sin terminar la mitad de sus partidas; sus partidas pendientes se anulan. Su partida { $game } contra este jugador no cuenta para nadie; ha terminado.
event-standing = Clasificación en { $event }: puesto { $rank } de { $players }, puntos: { $points }, partidas terminadas: { $played }.

## A greeting when the player's name is known

greeting = Hola, { $name }:

## The player chose a language

subject-language-set = idioma: español
language-set = A partir de ahora, wildt le escribe en español. Para elegir otro idioma, responda con una línea como «idioma: English».

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Mensaje de su rival: { $note }
subject-xfcc-password = su contraseña Xfcc
xfcc-password =
    Su nueva contraseña para jugar desde un programa de ajedrez (Xfcc): { $password }
    Usuario: { $user }
    La contraseña anterior ya no sirve. Para obtener otra, escriba "xfcc password" a cualquiera de sus direcciones de partida.
