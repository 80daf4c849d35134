# wildt: tutti i testi che un giocatore può ricevere, in italiano.
# Variabili come in locales/en/wildt.ftl; non tradurre mai mosse né numeri.

## Oggetti

subject-new-game = nuova partita: gioca con { $color ->
        [white] il Bianco
       *[black] il Nero
    } contro { $opponent }
subject-new-address = il suo nuovo indirizzo di partita
subject-move-accepted = { $move } accettata
subject-your-move = { $move } - tocca a lei
subject-draw-offer-sent = proposta di patta inoltrata
subject-draw-offered = proposta di patta
subject-draw-declined = patta rifiutata
subject-status = posizione
subject-not-played = non giocata
subject-game-over = partita finita { $result }
subject-too-large = messaggio troppo grande
subject-how-to-play = come si gioca
subject-security = un messaggio non è stato giocato
subject-wrong-address = indirizzo di partita sbagliato
subject-not-understood = non compreso

## Inizio della partita

welcome-intro = Partita { $game }: lei gioca con { $color ->
        [white] il Bianco
       *[black] il Nero
    } contro { $opponent }.
welcome-intro-event = Partita { $game } ({ $event }): lei gioca con { $color ->
        [white] il Bianco
       *[black] il Nero
    } contro { $opponent }.
welcome-address = Il suo indirizzo per questa partita è { $address }: basta rispondere a questa e-mail.
notation-explained =
    Le mosse si scrivono in notazione numerica ICCF: casa di partenza e poi casa di arrivo, ogni casa
    indicata dalla cifra della colonna e poi da quella della traversa (e2-e4 è 5254; l'arrocco è la mossa
    del re, 5171; una promozione aggiunge 1 donna, 2 torre, 3 alfiere, 4 cavallo).
new-address =
    L'organizzatore le ha assegnato un nuovo indirizzo per la partita { $game } (lei gioca con { $color ->
        [white] il Bianco
       *[black] il Nero
    } contro { $opponent }).
    Il suo indirizzo per questa partita ora è { $address }: basta rispondere a questa e-mail.
    I messaggi inviati al vecchio indirizzo non vengono più giocati.

## Scacchiera, formulario, situazione

record-line = Formulario: { $record }
record-empty = Formulario: (ancora nessuna mossa)
status-to-move = Muove il { $color ->
        [white] Bianco
       *[black] Nero
    } ({ $number })
status-to-move-draw-offered = Muove il { $color ->
        [white] Bianco
       *[black] Nero
    } ({ $number }); il { $offerer ->
        [white] Bianco
       *[black] Nero
    } ha proposto la patta
status-game-over = Partita finita: { $result } ({ $termination })
board-legend = pezzi con le lettere inglesi: K re, Q donna, R torre, B alfiere, N cavallo, P pedone; maiuscole per il Bianco
board-caption = { $color ->
        [white] La scacchiera vista dal lato del Bianco
       *[black] La scacchiera vista dal lato del Nero
    }
record-heading = Formulario
column-white = Bianco
column-black = Nero

## Fine della partita

termination-checkmate = scacco matto
termination-stalemate = stallo
termination-insufficient-material = materiale insufficiente
termination-resignation = abbandono
termination-draw-agreed = patta d'accordo
termination-threefold-repetition = triplice ripetizione
termination-fifty-move-rule = regola delle 50 mosse

## Come rispondere

footer-your-move =
    Risponda a questa e-mail con la sua mossa in notazione numerica, ad esempio «{ $number } { $example }».
    Altri comandi: abbandono, propongo patta, accetto patta, rifiuto patta, richiedo patta, scacchiera.
footer-wait = Riceverà la mossa del suo avversario per e-mail.

## Decisioni

moved-mine = Partita { $game }: la sua mossa { $move } ({ $san }) è stata registrata.
moved-mine-draw-offer = La sua proposta di patta è stata inoltrata.
moved-theirs = Partita { $game }: il { $color ->
        [white] Bianco
       *[black] Nero
    } ha giocato { $move } ({ $san }).
moved-theirs-draw-offer = Con questa mossa il suo avversario propone la patta: risponda «accetto patta», oppure invii semplicemente la sua mossa per rifiutarla.
ended-resigned = Il { $color ->
        [white] Bianco
       *[black] Nero
    } ha abbandonato.
ended-draw-accepted = Il { $color ->
        [white] Bianco
       *[black] Nero
    } ha accettato la patta.
ended-draw-claimed = Il { $color ->
        [white] Bianco
       *[black] Nero
    } ha richiesto la patta ({ $termination }); la richiesta è fondata.
draw-offer-sent = Partita { $game }: la sua proposta di patta è stata inoltrata al suo avversario.
draw-offered =
    Partita { $game }: il { $color ->
        [white] Bianco
       *[black] Nero
    } propone la patta.
    Risponda «accetto patta» o «rifiuto patta»; anche una mossa la rifiuta.
draw-declined-mine = Partita { $game }: lei ha rifiutato la proposta di patta.
draw-declined-theirs = Partita { $game }: il { $color ->
        [white] Bianco
       *[black] Nero
    } ha rifiutato la sua proposta di patta. La partita continua.
status-intro = Partita { $game }: la posizione attuale.
rejected-intro = Partita { $game }: il suo messaggio non è stato giocato.
rejected-reason = Motivo: { $reason }.
rejected-what-to-do = Che cosa fare: { $todo }
game-over-body = La partita { $game } è finita: { $result } ({ $termination }).
game-over-thanks = Grazie per la partita.

## Che cosa fare dopo un rifiuto

todo-game-over = niente: la partita è finita. Chieda una nuova partita all'organizzatore.
todo-wait = attenda la mossa del suo avversario; le arriverà per e-mail.
todo-compare-records = confronti il suo formulario con quello qui sotto, poi invii la sua mossa nella forma «{ $number } <mossa>».
todo-compare-records-later = confronti il suo formulario con quello qui sotto, poi invii la sua mossa nella forma «{ $number } <mossa>» quando tocca a lei.
todo-send-one = invii solo la sua mossa per { $number }.
todo-send-if-yours = invii «{ $number } { $move }» se è questa la sua mossa.
todo-choose-promotion = invii una di queste mosse: { $options } (5ª cifra: 1 donna, 2 torre, 3 alfiere, 4 cavallo).
todo-send-legal = invii una mossa legale per { $number }; la scacchiera è qui sotto.
todo-offer-draw-yourself = per proporre lei la patta, scriva «propongo patta» (insieme alla mossa, se vuole).
todo-play-on = continui a giocare: invii la sua mossa.

## Perché un comando non è stato eseguito

reject-game-over = la partita è finita ({ $result }, { $termination }): non si accettano più mosse
reject-not-your-turn = muove il { $color ->
        [white] Bianco
       *[black] Nero
    }: attenda la mossa del suo avversario
reject-wrong-number = lei ha scritto la mossa { $given }, ma la partita è alla mossa { $expected } (muove il { $color ->
        [white] Bianco
       *[black] Nero
    }): i due formulari non coincidono
reject-echo-mismatch = alla mossa { $number } lei ha scritto { $given }, ma nel formulario c'è { $recorded }: i due formulari non coincidono
reject-several-new-moves = il suo messaggio contiene { $count ->
        [one] { $count } mossa nuova
       *[other] { $count } mosse nuove
    } ({ $moves }): invii una mossa alla volta
reject-already-recorded = { $number } { $move } è già nel formulario: invii la sua prossima mossa
reject-illegal = { $number } { $move } non è possibile: { $why }
reject-no-draw-offer = il suo avversario non ha proposto la patta, quindi non c'è nulla a cui rispondere
reject-own-draw-offer = la proposta di patta è sua: solo il suo avversario può accettarla
reject-claim-refused = non si può richiedere la patta: la posizione si è presentata { $repetitions ->
        [one] una volta
       *[other] { $repetitions } volte
    } (ne servono 3) e { $moves ->
        [one] è stata giocata { $moves } mossa
       *[other] sono state giocate { $moves } mosse
    } senza catture né mosse di pedone (ne servono 50)

## Perché una mossa non è legale

illegal-no-piece = non c'è nessun pezzo in { $square }
illegal-opponents-piece = il pezzo in { $square } è { $color ->
        [white] del Nero, e muove il Bianco
       *[black] del Bianco, e muove il Nero
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] il re
        [queen] la donna
        [rook] la torre
        [bishop] l'alfiere
        [knight] il cavallo
       *[pawn] il pedone
    } in { $from } non può raggiungere { $to }; al momento non ha mosse legali
illegal-cannot-reach-moves = { $piece ->
        [king] il re
        [queen] la donna
        [rook] la torre
        [bishop] l'alfiere
        [knight] il cavallo
       *[pawn] il pedone
    } in { $from } non può raggiungere { $to }; le sue mosse legali sono { $moves }
illegal-leaves-king-in-check = { $move } lascerebbe sotto scacco il suo re in { $king }
illegal-castling = l'arrocco { $move } ora non è possibile: { $reason }
castling-right-lost = il re o quella torre si sono già mossi
castling-piece-in-the-way = c'è un pezzo in mezzo, in { $square }
castling-in-check = il re è sotto scacco
castling-square-attacked = il re passerebbe o arriverebbe in { $square }, che è attaccata
illegal-promotion-digit-missing = un pedone che raggiunge l'ultima traversa richiede una 5ª cifra (1 donna, 2 torre, 3 alfiere, 4 cavallo): { $options }
illegal-promotion-digit-not-allowed = { $move } non è una promozione, quindi non prende una 5ª cifra: scriva { $without }
illegal-old-promotion-form = { $given } è la vecchia forma di promozione a 4 cifre; la forma standard è { $standard }: invii { $standard } se è questa la sua mossa

## Perché un testo non è una mossa

parse-wrong-length = `{ $text }` ha { $count ->
        [one] { $count } cifra
       *[other] { $count } cifre
    }: una mossa ha 4 cifre (5 per una promozione)
parse-not-a-digit = `{ $text }` contiene `{ $char }`, che non è una cifra: scriva le mosse solo con cifre, ad esempio 5254
parse-not-a-square = { $square } non è una casa: colonne e traverse vanno da 1 a 8
parse-same-square = `{ $text }` parte e arriva in { $square }: una mossa va da una casa a un'altra
parse-bad-promotion-digit = `{ $text }` finisce con { $digit }: la cifra di promozione è 1 (donna), 2 (torre), 3 (alfiere) o 4 (cavallo)

## Un messaggio senza un comando chiaro

unclear-intro = Partita { $game }: il suo messaggio non si è potuto leggere come un comando chiaro, quindi non è stato giocato nulla.
unclear-found = Che cosa è stato trovato: { $what }.
unclear-please =
    Risponda solo con la sua mossa in notazione numerica, ad esempio «{ $number } 5254»,
    oppure con uno di questi comandi: abbandono, propongo patta, accetto patta, rifiuto patta, richiedo patta, scacchiera.
unclear-nothing-found = nel suo messaggio non è stata trovata nessuna mossa né alcun comando; scriva la mossa in notazione numerica su una riga a sé, ad esempio 13. 5254
unclear-several-moves = il suo messaggio contiene mosse diverse ({ $moves }); invii una sola mossa (preceduta dal formulario, se vuole, ad esempio 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` sembra una mossa, ma non lo è: { $error }
unclear-algebraic = `{ $text }` è in notazione algebrica; questa partita si gioca in notazione numerica (ad esempio 5254 per e2-e4), quindi non è stata convertita
unclear-number-in-prose = `{ $text }` si trova all'interno di una frase e potrebbe essere o non essere la sua mossa; scriva la mossa su una riga a sé, ad esempio 13. 5254
unclear-vague-draw = `{ $text }`: scriva «propongo patta», «accetto patta» o «rifiuto patta»
unclear-uncertain = `{ $text }` cita un comando irrevocabile, ma non come una sua dichiarazione esplicita (compare in una domanda, in una condizione, in una citazione, con una negazione, accanto a parole riferite a qualcun altro o nell'oggetto); se è davvero ciò che intende, lo scriva da solo su una riga del messaggio, ad esempio «abbandono»
unclear-mixed-commands = il suo messaggio contiene più di un comando ({ $commands }); li invii uno alla volta
unclear-too-many-commands = il suo messaggio contiene { $count } mosse e comandi, più dei { $limit } ammessi in un messaggio; invii solo la sua mossa
unclear-malformed = il messaggio non si è potuto leggere come e-mail

## Avvisi fuori dal gioco

too-large =
    Il suo messaggio di { $size } byte supera quanto legge questo arbitro ({ $limit } byte), quindi non è stato letto.
    Invii un breve messaggio in testo semplice con la sola mossa, senza allegati.
help =
    Qui { $name } <{ $address }>, un arbitro di scacchi per corrispondenza.

    Le mosse sono accettate solo al suo indirizzo di partita personale, che ha la forma
    { $local }+<partita>-<chiave>@{ $domain } e le è stato inviato alla creazione della partita.
    Basta rispondere a una qualsiasi e-mail della sua partita.

    Le mosse si scrivono in notazione numerica ICCF: casa di partenza e poi casa di arrivo,
    ogni casa indicata dalla cifra della colonna e poi da quella della traversa (e2-e4 è 5254;
    l'arrocco è la mossa del re, 5171; una promozione aggiunge 1 donna, 2 torre, 3 alfiere, 4 cavallo).

    Comandi: una mossa, abbandono, propongo patta, accetto patta, rifiuto patta, richiedo patta, scacchiera.
auth-failed =
    È arrivato un messaggio per la partita { $game } con il suo indirizzo ({ $from }) come mittente, ma il server
    di posta del circolo non ha potuto confermare che provenisse da lei ({ $found }). Non è stato giocato.
    Se l'ha inviato lei, verifichi che il suo provider firmi la posta (DKIM) e pubblichi DMARC;
    altrimenti qualcuno ha tentato di muovere al suo posto.
auth-found-summary = i suoi controlli hanno dato: { $summary }
auth-found-nothing = non ha trovato nel messaggio alcuna prova del mittente
stranger =
    Al suo indirizzo per la partita { $game } è arrivato un messaggio da { $from }, che non è il suo indirizzo registrato ({ $registered }).
    Non è stato giocato. Le mosse valgono solo se inviate dal suo indirizzo registrato.
    Se non è stato lei, non c'è nulla da fare; se pensa che qualcun altro conosca il suo indirizzo di partita,
    ne chieda uno nuovo all'organizzatore (wildt game rekey).
wrong-address =
    Il suo messaggio è stato inviato a un indirizzo che non è il suo per la partita { $game }, quindi non è stato giocato.
    Il suo indirizzo per questa partita è:

        { $address }

    Risponda a questa e-mail per raggiungerlo.

# conditional
cond-subject = mosse condizionali
cond-subject-prepared = { $move } giocata dalle sue mosse condizionali
cond-intro = Partita { $game }: le sue mosse condizionali.
cond-stored = Le sue mosse condizionali sono registrate:
cond-cancelled = Le sue mosse condizionali sono annullate; non ne resta registrata nessuna.
cond-rejected =
    Le sue mosse condizionali non sono state accettate: { $reason }.
    Le sue mosse condizionali precedenti, se ce ne sono, restano invariate.
cond-move-counts = La mossa del suo messaggio viene giocata comunque.
cond-not-considered = Le sue mosse condizionali non sono state esaminate perché il resto del messaggio non era un comando chiaro; le invii di nuovo con la sua mossa.
cond-prepared-played = Partita { $game }: l'avversario ha giocato { $opponent } e la sua risposta preparata { $answer } è stata giocata subito.
cond-prepared-accepted = Partita { $game }: l'avversario ha giocato { $opponent } offrendo la patta; le sue mosse condizionali l'hanno accettata.
cond-remaining = Ciò che resta delle sue mosse condizionali:
cond-none-remain = Non restano mosse condizionali: risponderà alla prossima mossa a mano.
cond-relay-prepared = L'avversario aveva preparato questa mossa in anticipo; è stata giocata appena è arrivata la sua mossa.
cond-off-tree = Le sue mosse condizionali non prevedevano { $opponent } e sono quindi cancellate: risponda a mano.
cond-no-offer = La sua linea condizionale finiva accettando la patta, ma { $opponent } è arrivata senza offerta di patta: non è stato giocato nulla e le sue mosse condizionali sono esaurite. Risponda a mano.
cond-stale = Le sue mosse condizionali non corrispondono più alla partita e sono quindi cancellate: risponda a mano.

# clock
termination-time-forfeit = tempo scaduto
subject-clock-reminder = promemoria: tocca a lei
subject-clock-low-time = il suo tempo sta per finire
clock-reminder =
    Partita { $game }: tocca a lei, e sono passati { $days } giorni dall'arrivo della mossa dell'avversario.
    Invii la sua mossa, per favore; il suo orologio continua a correre.
clock-low-time =
    Partita { $game }: sul suo orologio restano solo { $days } giorni. Se finiscono, la partita è persa per tempo.
clock-days-left = { $color ->
        [white] Bianco
       *[black] Nero
    }: restano { $days } giorni per le mosse { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Bianco
       *[black] Nero
    }: restano { $days } giorni
termination-adjudication = decisione dell'arbitro
subject-clock-leave = congedo
subject-clock-ruling = decisione sull'orologio
clock-leave-granted =
    Partita { $game }: { $color ->
            [white] il Bianco
           *[black] il Nero
        } è in congedo dal { $from } al { $to } (entrambi i giorni inclusi); il suo orologio intanto non corre.
clock-days-given =
    Partita { $game }: per decisione dell'organizzatore, l'orologio de{ $color ->
            [white] l Bianco
           *[black] l Nero
        } riceve { $days } giorni.
clock-adjudicated =
    La partita { $game } è stata decisa dall'organizzatore: { $result }.
    Motivo: { $reason }
clock-leave-refused = Partita { $game }: il suo congedo non è stato registrato: { $why }.
clock-leave-why-ends-before-start = finisce ({ $to }) prima di iniziare ({ $from })
clock-leave-why-in-past = inizia ({ $from }) prima di oggi ({ $today })
clock-leave-why-overlaps = si sovrappone al suo congedo dal { $from } al { $to }
clock-leave-why-exceeds = richiede { $asked } giorni del { $year }, ma dei suoi { $allowance } giorni annui ne restano solo { $remaining }
clock-leave-why-overlaps-organiser = si sovrappone al congedo dal { $from } al { $to }
clock-leave-why-exceeds-organiser = richiede { $asked } giorni del { $year }, ma dei { $allowance } giorni annui ne restano solo { $remaining }
clock-leave-why-unclear = le sue date non sono leggibili; scriva per esempio: congedo 20.12.2026 al 03.01.2027
clock-leave-cancelled = Partita { $game }: il congedo di { $color ->
        [white] il Bianco
       *[black] il Nero
    } dal { $from } è annullato; l'orologio riprende a correre.
clock-leave-nothing-to-cancel = Partita { $game }: non c'è alcun congedo in corso o futuro da annullare.

# event
termination-forfeit = forfait
termination-annulled = annullata dall'organizzatore
subject-event-welcome = { $event }: le sue partite
event-welcome-intro = Benvenuto in { $event }, un girone all'italiana (giocatori: { $players }; sue partite: { $games }). Tutte le sue partite iniziano ora:
event-welcome-game = Partita { $game }: gioca con { $color ->
        [white] il Bianco
       *[black] il Nero
    } contro { $opponent } - invii le mosse a { $address }
event-welcome-outro = Ogni partita ha anche la sua mail di benvenuto: risponda a quella mail per inviare le mosse di quella partita.
subject-event-withdrawal = { $event }: un giocatore si è ritirato
event-withdrawal-forfeit = { $opponent } si è ritirato da { $event }. La sua partita { $game } contro questo giocatore è vinta da lei per forfait; è terminata.
event-withdrawal-annulled = { $opponent } si è ritirato da { $event } prima di terminare metà delle sue partite; le sue partite in corso sono annullate. La sua partita { $game } contro questo giocatore non conta per nessuno; è terminata.
event-standing = Classifica in { $event }: posto { $rank } su { $players }, punti: { $points }, partite terminate: { $played }.

## A greeting when the player's name is known

greeting = Buongiorno { $name },

## The player chose a language

subject-language-set = lingua: italiano
language-set = D'ora in poi wildt le scrive in italiano. Per scegliere un'altra lingua, risponda con una riga come «lingua: English».

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Messaggio del tuo avversario: { $note }
subject-xfcc-password = la tua password Xfcc
xfcc-password =
    La tua nuova password per giocare da un programma di scacchi (Xfcc): { $password }
    Nome utente: { $user }
    La password precedente non vale più. Per averne un'altra, scrivi "xfcc password" a uno qualsiasi dei tuoi indirizzi di partita.
