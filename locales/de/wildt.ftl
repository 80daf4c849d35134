# wildt: alle Texte, die ein Spieler erhalten kann, auf Deutsch.
# Variablen wie in locales/en/wildt.ftl; Züge und Zugnummern nie übersetzen.

## Betreffzeilen

subject-new-game = neue Partie: Sie spielen { $color ->
        [white] Weiß
       *[black] Schwarz
    } gegen { $opponent }
subject-new-address = Ihre neue Partieadresse
subject-move-accepted = { $move } angenommen
subject-your-move = { $move } - Sie sind am Zug
subject-draw-offer-sent = Remisangebot übermittelt
subject-draw-offered = Remisangebot
subject-draw-declined = Remis abgelehnt
subject-status = Stellung
subject-not-played = nicht ausgeführt
subject-game-over = Partie beendet { $result }
subject-too-large = Nachricht zu groß
subject-how-to-play = So wird gespielt
subject-security = eine Nachricht wurde nicht ausgeführt
subject-wrong-address = falsche Partieadresse
subject-not-understood = nicht verstanden

## Partiebeginn

welcome-intro = Partie { $game }: Sie spielen { $color ->
        [white] Weiß
       *[black] Schwarz
    } gegen { $opponent }.
welcome-intro-event = Partie { $game } ({ $event }): Sie spielen { $color ->
        [white] Weiß
       *[black] Schwarz
    } gegen { $opponent }.
welcome-address = Ihre Adresse für diese Partie ist { $address } - antworten Sie einfach auf diese Mail.
notation-explained =
    Züge werden in der numerischen ICCF-Notation geschrieben: Ausgangsfeld, dann Zielfeld,
    jedes Feld als Linienziffer und Reihenziffer (e2-e4 ist 5254; die Rochade ist der Königszug,
    5171; bei einer Umwandlung folgt 1 Dame, 2 Turm, 3 Läufer, 4 Springer).
new-address =
    Die Turnierleitung hat Ihnen eine neue Adresse für Partie { $game } gegeben (Sie spielen { $color ->
        [white] Weiß
       *[black] Schwarz
    } gegen { $opponent }).
    Ihre Adresse für diese Partie ist jetzt { $address } - antworten Sie einfach auf diese Mail.
    Nachrichten an Ihre alte Adresse werden nicht mehr ausgeführt.

## Brett, Notation, Stand

record-line = Notation: { $record }
record-empty = Notation: (noch keine Züge)
status-to-move = { $color ->
        [white] Weiß
       *[black] Schwarz
    } am Zug ({ $number })
status-to-move-draw-offered = { $color ->
        [white] Weiß
       *[black] Schwarz
    } am Zug ({ $number }); { $offerer ->
        [white] Weiß
       *[black] Schwarz
    } hat Remis angeboten
status-game-over = Partie beendet: { $result } ({ $termination })
board-legend = Figuren mit englischen Buchstaben: K König, Q Dame, R Turm, B Läufer, N Springer, P Bauer; Großbuchstaben Weiß
board-caption = { $color ->
        [white] Das Brett aus der Sicht von Weiß
       *[black] Das Brett aus der Sicht von Schwarz
    }
record-heading = Notation
column-white = Weiß
column-black = Schwarz

## Partieende

termination-checkmate = Schachmatt
termination-stalemate = Patt
termination-insufficient-material = ungenügendes Material
termination-resignation = Aufgabe
termination-draw-agreed = Remis vereinbart
termination-threefold-repetition = dreimalige Stellungswiederholung
termination-fifty-move-rule = 50-Züge-Regel

## Wie man antwortet

footer-your-move =
    Antworten Sie auf diese Mail mit Ihrem Zug in numerischer Notation, z. B. „{ $number } { $example }“.
    Weitere Befehle: aufgeben, ich biete Remis an, Remis angenommen, Remis abgelehnt, reklamiere Remis, Stellung.
footer-wait = Den Zug Ihres Gegners erhalten Sie per Mail.

## Entscheidungen

moved-mine = Partie { $game }: Ihr Zug { $move } ({ $san }) ist notiert.
moved-mine-draw-offer = Ihr Remisangebot wurde weitergeleitet.
moved-theirs = Partie { $game }: { $color ->
        [white] Weiß
       *[black] Schwarz
    } hat { $move } ({ $san }) gespielt.
moved-theirs-draw-offer = Mit diesem Zug bietet Ihr Gegner Remis an: Antworten Sie „Remis angenommen“, oder lehnen Sie ab, indem Sie einfach Ihren Zug schicken.
ended-resigned = { $color ->
        [white] Weiß
       *[black] Schwarz
    } hat aufgegeben.
ended-draw-accepted = { $color ->
        [white] Weiß
       *[black] Schwarz
    } hat das Remis angenommen.
ended-draw-claimed = { $color ->
        [white] Weiß
       *[black] Schwarz
    } hat Remis reklamiert ({ $termination }); die Reklamation ist berechtigt.
draw-offer-sent = Partie { $game }: Ihr Remisangebot wurde an Ihren Gegner weitergeleitet.
draw-offered =
    Partie { $game }: { $color ->
        [white] Weiß
       *[black] Schwarz
    } bietet Remis an.
    Antworten Sie „Remis angenommen“ oder „Remis abgelehnt“; auch ein Zug lehnt das Angebot ab.
draw-declined-mine = Partie { $game }: Sie haben das Remisangebot abgelehnt.
draw-declined-theirs = Partie { $game }: { $color ->
        [white] Weiß
       *[black] Schwarz
    } hat Ihr Remisangebot abgelehnt. Die Partie geht weiter.
status-intro = Partie { $game }: die aktuelle Stellung.
rejected-intro = Partie { $game }: Ihre Nachricht wurde nicht ausgeführt.
rejected-reason = Grund: { $reason }.
rejected-what-to-do = Was zu tun ist: { $todo }
game-over-body = Partie { $game } ist beendet: { $result } ({ $termination }).
game-over-thanks = Vielen Dank für die Partie.

## Was nach einer Ablehnung zu tun ist

todo-game-over = nichts: Die Partie ist beendet. Fragen Sie die Turnierleitung nach einer neuen Partie.
todo-wait = Warten Sie auf den Zug Ihres Gegners; er erreicht Sie per Mail.
todo-compare-records = Vergleichen Sie Ihre Notation mit der unten stehenden und schicken Sie dann Ihren Zug als „{ $number } <Zug>“.
todo-compare-records-later = Vergleichen Sie Ihre Notation mit der unten stehenden und schicken Sie Ihren Zug als „{ $number } <Zug>“, sobald Sie am Zug sind.
todo-send-one = Schicken Sie nur Ihren Zug für { $number }.
todo-send-if-yours = Schicken Sie „{ $number } { $move }“, wenn das Ihr Zug ist.
todo-choose-promotion = Schicken Sie einen dieser Züge: { $options } (5. Ziffer: 1 Dame, 2 Turm, 3 Läufer, 4 Springer).
todo-send-legal = Schicken Sie einen regelgerechten Zug für { $number }; das Brett steht unten.
todo-offer-draw-yourself = Um selbst Remis anzubieten, schreiben Sie „ich biete Remis an“ (gern zusammen mit Ihrem Zug).
todo-play-on = Spielen Sie weiter: Schicken Sie Ihren Zug.

## Warum ein Befehl nicht ausgeführt wurde

reject-game-over = Die Partie ist beendet ({ $result }, { $termination }): Es werden keine Züge mehr angenommen
reject-not-your-turn = { $color ->
        [white] Weiß
       *[black] Schwarz
    } ist am Zug: Warten Sie auf den Zug Ihres Gegners
reject-wrong-number = Sie haben Zug { $given } geschrieben, die Partie steht aber bei Zug { $expected } ({ $color ->
        [white] Weiß
       *[black] Schwarz
    } am Zug): Die beiden Notationen stimmen nicht überein
reject-echo-mismatch = Bei Zug { $number } haben Sie { $given } geschrieben, notiert ist aber { $recorded }: Die beiden Notationen stimmen nicht überein
reject-several-new-moves = Ihre Nachricht enthält { $count ->
        [one] { $count } neuen Zug
       *[other] { $count } neue Züge
    } ({ $moves }): Schicken Sie immer nur einen Zug
reject-already-recorded = { $number } { $move } ist bereits notiert: Schicken Sie Ihren nächsten Zug
reject-illegal = { $number } { $move } ist nicht möglich: { $why }
reject-no-draw-offer = Ihr Gegner hat kein Remis angeboten, auf das Sie antworten könnten
reject-own-draw-offer = Das Remisangebot stammt von Ihnen: Nur Ihr Gegner kann es annehmen
reject-claim-refused = Remis kann nicht reklamiert werden: Die Stellung ist { $repetitions ->
        [one] einmal
       *[other] { $repetitions }-mal
    } aufgetreten (3 nötig), und seit dem letzten Schlagen oder Bauernzug { $moves ->
        [one] wurde { $moves } Zug
       *[other] wurden { $moves } Züge
    } gespielt (50 nötig)

## Warum ein Zug nicht regelgerecht ist

illegal-no-piece = Auf { $square } steht keine Figur
illegal-opponents-piece = Die Figur auf { $square } gehört { $color ->
        [white] Schwarz, und Weiß ist am Zug
       *[black] Weiß, und Schwarz ist am Zug
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] Der König
        [queen] Die Dame
        [rook] Der Turm
        [bishop] Der Läufer
        [knight] Der Springer
       *[pawn] Der Bauer
    } auf { $from } kann { $to } nicht erreichen; { $piece ->
        [queen] sie hat
       *[other] er hat
    } zurzeit keinen regelgerechten Zug
illegal-cannot-reach-moves = { $piece ->
        [king] Der König
        [queen] Die Dame
        [rook] Der Turm
        [bishop] Der Läufer
        [knight] Der Springer
       *[pawn] Der Bauer
    } auf { $from } kann { $to } nicht erreichen; { $piece ->
        [queen] ihre
       *[other] seine
    } regelgerechten Züge sind { $moves }
illegal-leaves-king-in-check = Nach { $move } stünde Ihr König auf { $king } im Schach
illegal-castling = Die Rochade { $move } ist jetzt nicht möglich: { $reason }
castling-right-lost = Der König oder dieser Turm hat schon gezogen
castling-piece-in-the-way = Auf { $square } steht eine Figur im Weg
castling-in-check = Der König steht im Schach
castling-square-attacked = Der König würde über { $square } ziehen oder dort landen, und das Feld ist angegriffen
illegal-promotion-digit-missing = Ein Bauer, der die letzte Reihe erreicht, braucht eine 5. Ziffer (1 Dame, 2 Turm, 3 Läufer, 4 Springer): { $options }
illegal-promotion-digit-not-allowed = { $move } ist keine Umwandlung und hat daher keine 5. Ziffer: Schreiben Sie { $without }
illegal-old-promotion-form = { $given } ist die alte vierstellige Umwandlungsform; die übliche Form ist { $standard }: Schicken Sie { $standard }, wenn das Ihr Zug ist

## Warum ein Text kein Zug ist

parse-wrong-length = `{ $text }` hat { $count ->
        [one] { $count } Ziffer
       *[other] { $count } Ziffern
    }: Ein Zug hat 4 Ziffern (5 bei einer Umwandlung)
parse-not-a-digit = `{ $text }` enthält `{ $char }`, das ist keine Ziffer: Schreiben Sie Züge nur mit Ziffern, z. B. 5254
parse-not-a-square = { $square } ist kein Feld: Linien und Reihen gehen von 1 bis 8
parse-same-square = `{ $text }` beginnt und endet auf { $square }: Ein Zug führt von einem Feld auf ein anderes
parse-bad-promotion-digit = `{ $text }` endet auf { $digit }: Die Umwandlungsziffer ist 1 (Dame), 2 (Turm), 3 (Läufer) oder 4 (Springer)

## Eine Nachricht ohne eindeutigen Befehl

unclear-intro = Partie { $game }: Ihre Nachricht ließ sich nicht als ein eindeutiger Befehl lesen, daher wurde nichts ausgeführt.
unclear-found = Gefunden wurde: { $what }.
unclear-please =
    Bitte antworten Sie nur mit Ihrem Zug in numerischer Notation, z. B. „{ $number } 5254“,
    oder mit einem dieser Befehle: aufgeben, ich biete Remis an, Remis angenommen, Remis abgelehnt, reklamiere Remis, Stellung.
unclear-nothing-found = In Ihrer Nachricht wurde weder ein Zug noch ein Befehl gefunden; schreiben Sie den Zug in numerischer Notation in eine eigene Zeile, z. B. 13. 5254
unclear-several-moves = Ihre Nachricht enthält verschiedene Züge ({ $moves }); schicken Sie einen Zug (gern mit der Notation davor, z. B. 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` sieht aus wie ein Zug, ist aber keiner: { $error }
unclear-algebraic = `{ $text }` ist algebraische Notation; diese Partie wird in numerischer Notation gespielt (z. B. 5254 für e2-e4), daher wurde nichts umgerechnet
unclear-number-in-prose = `{ $text }` steht mitten in einem Satz und ist vielleicht Ihr Zug, vielleicht nicht; schreiben Sie den Zug in eine eigene Zeile, z. B. 13. 5254
unclear-vague-draw = `{ $text }`: Bitte schreiben Sie „ich biete Remis an“, „Remis angenommen“ oder „Remis abgelehnt“
unclear-uncertain = `{ $text }` nennt einen Befehl, der sich nicht rückgängig machen lässt, aber nicht als klare eigene Aussage (er steht in einer Frage, einer Bedingung, einem Zitat, mit einer Verneinung, neben Worten über jemand anderen oder im Betreff); wenn Sie ihn meinen, schreiben Sie ihn allein in eine Zeile der Nachricht, z. B. „ich gebe auf“
unclear-mixed-commands = Ihre Nachricht enthält mehr als einen Befehl ({ $commands }); schicken Sie sie einzeln
unclear-too-many-commands = Ihre Nachricht enthält { $count } Züge und Befehle, mehr als die { $limit }, die eine Nachricht enthalten darf; schicken Sie Ihren Zug allein
unclear-malformed = Die Nachricht ließ sich nicht als E-Mail lesen

## Hinweise außerhalb der Partie

too-large =
    Ihre Nachricht ist { $size } Byte groß, mehr als dieser Schiedsrichter liest ({ $limit } Byte); sie wurde daher nicht gelesen.
    Bitte schicken Sie eine kurze Nur-Text-Mail mit nichts als Ihrem Zug, ohne Anhänge.
help =
    Hier ist { $name } <{ $address }>, ein Schiedsrichter für Fernschach.

    Züge werden nur an Ihrer eigenen Partieadresse angenommen. Sie sieht so aus:
    { $local }+<Partie>-<Schlüssel>@{ $domain } und wurde Ihnen beim Anlegen Ihrer Partie geschickt.
    Antworten Sie einfach auf eine beliebige Mail Ihrer Partie.

    Züge werden in der numerischen ICCF-Notation geschrieben: Ausgangsfeld, dann Zielfeld,
    jedes Feld als Linienziffer und Reihenziffer (e2-e4 ist 5254; die Rochade ist der
    Königszug, 5171; bei einer Umwandlung folgt 1 Dame, 2 Turm, 3 Läufer, 4 Springer).

    Befehle: ein Zug, aufgeben, ich biete Remis an, Remis angenommen, Remis abgelehnt, reklamiere Remis, Stellung.
auth-failed =
    Eine Nachricht für Partie { $game } kam mit Ihrer Adresse ({ $from }) als Absender an, aber der Mailserver
    des Vereins konnte nicht bestätigen, dass sie von Ihnen stammt ({ $found }). Sie wurde nicht ausgeführt.
    Wenn Sie sie geschickt haben, prüfen Sie, ob Ihr Anbieter Ihre Mails signiert (DKIM) und DMARC veröffentlicht;
    wenn nicht, hat jemand versucht, für Sie zu ziehen.
auth-found-summary = seine Prüfungen ergaben: { $summary }
auth-found-nothing = er fand keinen Nachweis des Absenders in der Nachricht
stranger =
    An Ihre Adresse für Partie { $game } kam eine Nachricht von { $from }, das ist nicht Ihre registrierte Adresse ({ $registered }).
    Sie wurde nicht ausgeführt. Züge zählen nur, wenn sie von Ihrer registrierten Adresse kommen.
    Waren Sie es nicht, ist nichts zu tun; wenn Sie glauben, dass jemand anderes Ihre Partieadresse kennt,
    bitten Sie die Turnierleitung um eine neue (wildt game rekey).
wrong-address =
    Ihre Nachricht ging an eine Adresse, die für Partie { $game } nicht Ihre ist, daher wurde sie nicht ausgeführt.
    Ihre Adresse für diese Partie lautet:

        { $address }

    Antworten Sie auf diese Mail, um sie zu erreichen.

# conditional
cond-subject = bedingte Züge
cond-subject-prepared = { $move } aus Ihren bedingten Zügen gespielt
cond-intro = Partie { $game }: Ihre bedingten Züge.
cond-stored = Ihre bedingten Züge sind gespeichert:
cond-cancelled = Ihre bedingten Züge sind gelöscht; es sind keine mehr gespeichert.
cond-rejected =
    Ihre bedingten Züge wurden nicht angenommen: { $reason }.
    Ihre früheren bedingten Züge, falls vorhanden, bleiben unverändert.
cond-move-counts = Der Zug in Ihrer Nachricht wird trotzdem gespielt.
cond-not-considered = Ihre bedingten Züge wurden nicht geprüft, weil der Rest Ihrer Nachricht kein eindeutiger Befehl war; senden Sie sie mit Ihrem Zug erneut.
cond-prepared-played = Partie { $game }: Ihr Gegner spielte { $opponent }, und Ihre vorbereitete Antwort { $answer } wurde sofort gespielt.
cond-prepared-accepted = Partie { $game }: Ihr Gegner spielte { $opponent } und bot Remis an; Ihre bedingten Züge haben es angenommen.
cond-remaining = Von Ihren bedingten Zügen bleibt:
cond-none-remain = Es bleiben keine bedingten Züge: den nächsten Zug beantworten Sie von Hand.
cond-relay-prepared = Ihr Gegner hatte diesen Zug vorbereitet; er wurde gespielt, sobald Ihr Zug eintraf.
cond-off-tree = Ihre bedingten Züge sahen { $opponent } nicht vor und sind daher gelöscht: bitte antworten Sie von Hand.
cond-no-offer = Ihre bedingte Zugfolge endete mit der Annahme eines Remis, aber { $opponent } kam ohne Remisangebot: nichts wurde gespielt, und Ihre bedingten Züge sind aufgebraucht. Bitte antworten Sie von Hand.
cond-stale = Ihre bedingten Züge passen nicht mehr zur Partie und sind daher gelöscht: bitte antworten Sie von Hand.

# clock
termination-time-forfeit = Zeitüberschreitung
subject-clock-reminder = Erinnerung: Sie sind am Zug
subject-clock-low-time = Ihre Bedenkzeit wird knapp
clock-reminder =
    Partie { $game }: Sie sind am Zug, und seit dem Eingang des gegnerischen Zuges sind { $days } Tage vergangen.
    Bitte senden Sie Ihren Zug; Ihre Uhr läuft weiter.
clock-low-time =
    Partie { $game }: Auf Ihrer Uhr bleiben nur noch { $days } Tage. Läuft sie ab, ist die Partie durch Zeitüberschreitung verloren.
clock-days-left = { $color ->
        [white] Weiß
       *[black] Schwarz
    }: noch { $days } Tage für die Züge { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Weiß
       *[black] Schwarz
    }: noch { $days } Tage
termination-adjudication = Entscheidung der Turnierleitung
subject-clock-leave = Urlaub
subject-clock-ruling = Entscheidung zur Bedenkzeit
clock-leave-granted =
    Partie { $game }: { $color ->
            [white] Weiß
           *[black] Schwarz
        } hat Urlaub vom { $from } bis { $to } (beide Tage eingeschlossen); die Uhr von { $color ->
            [white] Weiß
           *[black] Schwarz
        } läuft dann nicht.
clock-days-given =
    Partie { $game }: Durch Entscheidung der Turnierleitung erhält die Uhr von { $color ->
            [white] Weiß
           *[black] Schwarz
        } { $days } Tage.
clock-adjudicated =
    Partie { $game } wurde von der Turnierleitung entschieden: { $result }.
    Begründung: { $reason }
clock-leave-refused = Partie { $game }: Ihr Urlaub wurde nicht eingetragen: { $why }.
clock-leave-why-ends-before-start = er endet ({ $to }) vor seinem Beginn ({ $from })
clock-leave-why-in-past = er beginnt ({ $from }) vor dem heutigen Tag ({ $today })
clock-leave-why-overlaps = er überschneidet sich mit Ihrem Urlaub vom { $from } bis { $to }
clock-leave-why-exceeds = er braucht { $asked } Tage von { $year }, aber von Ihren { $allowance } Tagen im Jahr sind nur noch { $remaining } übrig
clock-leave-why-overlaps-organiser = er überschneidet sich mit dem Urlaub vom { $from } bis { $to }
clock-leave-why-exceeds-organiser = er braucht { $asked } Tage von { $year }, aber von den { $allowance } Tagen im Jahr sind nur noch { $remaining } übrig
clock-leave-why-unclear = seine Daten sind nicht lesbar; schreiben Sie zum Beispiel: Urlaub 20.12.2026 bis 03.01.2027
clock-leave-cancelled = Partie { $game }: Der Urlaub von { $color ->
        [white] Weiß
       *[black] Schwarz
    } ab { $from } ist aufgehoben; die Uhr läuft wieder.
clock-leave-nothing-to-cancel = Partie { $game }: Es gibt keinen laufenden oder kommenden Urlaub, der aufgehoben werden könnte.

# event
termination-forfeit = kampflos
termination-annulled = vom Turnierleiter annulliert
subject-event-welcome = { $event }: Ihre Partien
event-welcome-intro = Willkommen in { $event }, einem Rundenturnier (Spieler: { $players }; Ihre Partien: { $games }). Alle Ihre Partien beginnen jetzt:
event-welcome-game = Partie { $game }: Sie spielen { $color ->
        [white] Weiß
       *[black] Schwarz
    } gegen { $opponent } - Züge an { $address }
event-welcome-outro = Jede Partie hat außerdem ihre eigene Willkommensmail: Antworten Sie auf diese Mail, um Ihre Züge in dieser Partie zu schicken.
subject-event-withdrawal = { $event }: ein Spieler hat sich zurückgezogen
event-withdrawal-forfeit = { $opponent } hat sich aus { $event } zurückgezogen. Ihre Partie { $game } gegen diesen Spieler wird kampflos als Sieg für Sie gewertet; sie ist beendet.
event-withdrawal-annulled = { $opponent } hat sich aus { $event } zurückgezogen, bevor die Hälfte seiner Partien beendet war; seine offenen Partien werden annulliert. Ihre Partie { $game } gegen diesen Spieler zählt für niemanden; sie ist beendet.
event-standing = Stand in { $event }: Platz { $rank } von { $players }, Punkte: { $points }, beendete Partien: { $played }.

## A greeting when the player's name is known

greeting = Hallo { $name },

## The player chose a language

subject-language-set = Sprache: Deutsch
language-set = Ab jetzt schreibt Ihnen wildt auf Deutsch. Für eine andere Sprache antworten Sie mit einer Zeile wie „Sprache: English“.

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Nachricht Ihres Gegners: { $note }
subject-xfcc-password = Ihr Xfcc-Passwort
xfcc-password =
    Ihr neues Passwort für das Spielen aus einem Schachprogramm (Xfcc): { $password }
    Benutzername: { $user }
    Ein früheres Passwort gilt nicht mehr. Für ein neues schreiben Sie "xfcc password" an eine Ihrer Partieadressen.
