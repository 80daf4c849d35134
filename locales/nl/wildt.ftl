# wildt: alle teksten die een speler kan ontvangen, in het Nederlands.
# Variabelen zoals in locales/en/wildt.ftl; zetten en nummers nooit vertalen.

## Onderwerpregels

subject-new-game = nieuwe partij: u speelt met { $color ->
        [white] wit
       *[black] zwart
    } tegen { $opponent }
subject-new-address = uw nieuwe partijadres
subject-move-accepted = { $move } geaccepteerd
subject-your-move = { $move } - u bent aan zet
subject-draw-offer-sent = remiseaanbod doorgegeven
subject-draw-offered = remise aangeboden
subject-draw-declined = remise geweigerd
subject-status = stelling
subject-not-played = niet uitgevoerd
subject-game-over = partij afgelopen { $result }
subject-too-large = bericht te groot
subject-how-to-play = zo speelt u
subject-security = een bericht is niet uitgevoerd
subject-wrong-address = verkeerd partijadres
subject-not-understood = niet begrepen

## Begin van de partij

welcome-intro = Partij { $game }: u speelt met { $color ->
        [white] wit
       *[black] zwart
    } tegen { $opponent }.
welcome-intro-event = Partij { $game } ({ $event }): u speelt met { $color ->
        [white] wit
       *[black] zwart
    } tegen { $opponent }.
welcome-address = Uw adres voor deze partij is { $address } - beantwoord gewoon deze mail.
notation-explained =
    Zetten worden geschreven in de numerieke ICCF-notatie: beginveld en dan eindveld, elk veld als
    cijfer van de lijn en dan van de rij (e2-e4 is 5254; rokeren is de zet van de koning, 5171;
    bij promotie komt er 1 dame, 2 toren, 3 loper, 4 paard achter).
new-address =
    De organisator heeft u een nieuw adres gegeven voor partij { $game } (u speelt met { $color ->
        [white] wit
       *[black] zwart
    } tegen { $opponent }).
    Uw adres voor deze partij is nu { $address } - beantwoord gewoon deze mail.
    Berichten aan uw oude adres worden niet meer uitgevoerd.

## Bord, notatie, stand van zaken

record-line = Notatie: { $record }
record-empty = Notatie: (nog geen zetten)
status-to-move = { $color ->
        [white] Wit
       *[black] Zwart
    } aan zet ({ $number })
status-to-move-draw-offered = { $color ->
        [white] Wit
       *[black] Zwart
    } aan zet ({ $number }); { $offerer ->
        [white] wit
       *[black] zwart
    } heeft remise aangeboden
status-game-over = Partij afgelopen: { $result } ({ $termination })
board-legend = stukken met Engelse letters: K koning, Q dame, R toren, B loper, N paard, P pion; hoofdletters voor wit
board-caption = { $color ->
        [white] Het bord gezien vanaf de kant van wit
       *[black] Het bord gezien vanaf de kant van zwart
    }
record-heading = Notatie
column-white = Wit
column-black = Zwart

## Einde van de partij

termination-checkmate = schaakmat
termination-stalemate = pat
termination-insufficient-material = onvoldoende materiaal
termination-resignation = opgave
termination-draw-agreed = remise overeengekomen
termination-threefold-repetition = drievoudige zetherhaling
termination-fifty-move-rule = 50-zettenregel

## Hoe u antwoordt

footer-your-move =
    Beantwoord deze mail met uw zet in numerieke notatie, bijvoorbeeld "{ $number } { $example }".
    Andere opdrachten: opgeven, remise aanbieden, remise aangenomen, remise geweigerd, remise claimen, stelling.
footer-wait = U ontvangt de zet van uw tegenstander per mail.

## Beslissingen

moved-mine = Partij { $game }: uw zet { $move } ({ $san }) is genoteerd.
moved-mine-draw-offer = Uw remiseaanbod is doorgegeven.
moved-theirs = Partij { $game }: { $color ->
        [white] wit
       *[black] zwart
    } heeft { $move } ({ $san }) gespeeld.
moved-theirs-draw-offer = Met deze zet biedt uw tegenstander remise aan: antwoord "remise aangenomen", of stuur gewoon uw zet om te weigeren.
ended-resigned = { $color ->
        [white] Wit
       *[black] Zwart
    } heeft opgegeven.
ended-draw-accepted = { $color ->
        [white] Wit
       *[black] Zwart
    } heeft de remise aangenomen.
ended-draw-claimed = { $color ->
        [white] Wit
       *[black] Zwart
    } heeft remise geclaimd ({ $termination }); de claim is terecht.
draw-offer-sent = Partij { $game }: uw remiseaanbod is aan uw tegenstander doorgegeven.
draw-offered =
    Partij { $game }: { $color ->
        [white] wit
       *[black] zwart
    } biedt remise aan.
    Antwoord "remise aangenomen" of "remise geweigerd"; ook een zet weigert het aanbod.
draw-declined-mine = Partij { $game }: u heeft het remiseaanbod geweigerd.
draw-declined-theirs = Partij { $game }: { $color ->
        [white] wit
       *[black] zwart
    } heeft uw remiseaanbod geweigerd. De partij gaat verder.
status-intro = Partij { $game }: de huidige stelling.
rejected-intro = Partij { $game }: uw bericht is niet uitgevoerd.
rejected-reason = Reden: { $reason }.
rejected-what-to-do = Wat u kunt doen: { $todo }
game-over-body = Partij { $game } is afgelopen: { $result } ({ $termination }).
game-over-thanks = Dank u voor de partij.

## Wat u na een weigering kunt doen

todo-game-over = niets: de partij is afgelopen. Vraag de organisator om een nieuwe partij.
todo-wait = wacht op de zet van uw tegenstander; die ontvangt u per mail.
todo-compare-records = vergelijk uw notatie met die hieronder en stuur dan uw zet als "{ $number } <zet>".
todo-compare-records-later = vergelijk uw notatie met die hieronder en stuur uw zet als "{ $number } <zet>" zodra u aan zet bent.
todo-send-one = stuur alleen uw zet voor { $number }.
todo-send-if-yours = stuur "{ $number } { $move }" als dat uw zet is.
todo-choose-promotion = stuur een van deze zetten: { $options } (5e cijfer: 1 dame, 2 toren, 3 loper, 4 paard).
todo-send-legal = stuur een reglementaire zet voor { $number }; het bord staat hieronder.
todo-offer-draw-yourself = wilt u zelf remise aanbieden, schrijf dan "remise aanbieden" (eventueel samen met uw zet).
todo-play-on = speel verder: stuur uw zet.

## Waarom een opdracht niet is uitgevoerd

reject-game-over = de partij is afgelopen ({ $result }, { $termination }): er worden geen zetten meer aangenomen
reject-not-your-turn = { $color ->
        [white] wit
       *[black] zwart
    } is aan zet: wacht op de zet van uw tegenstander
reject-wrong-number = u schreef zet { $given }, maar de partij is bij zet { $expected } ({ $color ->
        [white] wit
       *[black] zwart
    } aan zet): de twee notaties lopen niet gelijk
reject-echo-mismatch = bij zet { $number } schreef u { $given }, maar genoteerd is { $recorded }: de twee notaties lopen niet gelijk
reject-several-new-moves = uw bericht bevat { $count ->
        [one] { $count } nieuwe zet
       *[other] { $count } nieuwe zetten
    } ({ $moves }): stuur één zet tegelijk
reject-already-recorded = { $number } { $move } is al genoteerd: stuur uw volgende zet
reject-illegal = { $number } { $move } is niet mogelijk: { $why }
reject-no-draw-offer = uw tegenstander heeft geen remise aangeboden waarop u kunt antwoorden
reject-own-draw-offer = het remiseaanbod komt van u: alleen uw tegenstander kan het aannemen
reject-claim-refused = remise kan niet worden geclaimd: de stelling is { $repetitions ->
        [one] één keer
       *[other] { $repetitions } keer
    } voorgekomen (3 nodig) en er { $moves ->
        [one] is { $moves } zet
       *[other] zijn { $moves } zetten
    } gespeeld zonder slagzet of pionzet (50 nodig)

## Waarom een zet niet reglementair is

illegal-no-piece = er staat geen stuk op { $square }
illegal-opponents-piece = het stuk op { $square } is van { $color ->
        [white] zwart, en wit is aan zet
       *[black] wit, en zwart is aan zet
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] de koning
        [queen] de dame
        [rook] de toren
        [bishop] de loper
        [knight] het paard
       *[pawn] de pion
    } op { $from } kan { $to } niet bereiken; { $piece ->
        [queen] ze
        [knight] het
       *[other] hij
    } heeft nu geen reglementaire zet
illegal-cannot-reach-moves = { $piece ->
        [king] de koning
        [queen] de dame
        [rook] de toren
        [bishop] de loper
        [knight] het paard
       *[pawn] de pion
    } op { $from } kan { $to } niet bereiken; de reglementaire zetten zijn { $moves }
illegal-leaves-king-in-check = na { $move } zou uw koning op { $king } schaak staan
illegal-castling = de rokade { $move } is nu niet mogelijk: { $reason }
castling-right-lost = de koning of die toren heeft al gezet
castling-piece-in-the-way = er staat een stuk in de weg op { $square }
castling-in-check = de koning staat schaak
castling-square-attacked = de koning zou over { $square } gaan of daar terechtkomen, en dat veld wordt aangevallen
illegal-promotion-digit-missing = een pion die de laatste rij bereikt, heeft een 5e cijfer nodig (1 dame, 2 toren, 3 loper, 4 paard): { $options }
illegal-promotion-digit-not-allowed = { $move } is geen promotie en krijgt dus geen 5e cijfer: schrijf { $without }
illegal-old-promotion-form = { $given } is de oude promotievorm met 4 cijfers; de standaardvorm is { $standard }: stuur { $standard } als dat uw zet is

## Waarom een tekst geen zet is

parse-wrong-length = `{ $text }` heeft { $count ->
        [one] { $count } cijfer
       *[other] { $count } cijfers
    }: een zet heeft 4 cijfers (5 bij een promotie)
parse-not-a-digit = `{ $text }` bevat `{ $char }`, en dat is geen cijfer: schrijf zetten alleen met cijfers, bijvoorbeeld 5254
parse-not-a-square = { $square } is geen veld: lijnen en rijen lopen van 1 tot 8
parse-same-square = `{ $text }` begint en eindigt op { $square }: een zet gaat van het ene veld naar het andere
parse-bad-promotion-digit = `{ $text }` eindigt op { $digit }: het promotiecijfer is 1 (dame), 2 (toren), 3 (loper) of 4 (paard)

## Een bericht zonder duidelijke opdracht

unclear-intro = Partij { $game }: uw bericht kon niet als één duidelijke opdracht worden gelezen, dus er is niets uitgevoerd.
unclear-found = Wat er werd gevonden: { $what }.
unclear-please =
    Antwoord alleen met uw zet in numerieke notatie, bijvoorbeeld "{ $number } 5254",
    of met een van deze opdrachten: opgeven, remise aanbieden, remise aangenomen, remise geweigerd, remise claimen, stelling.
unclear-nothing-found = er is geen zet of opdracht in uw bericht gevonden; schrijf de zet in numerieke notatie op een eigen regel, bijvoorbeeld 13. 5254
unclear-several-moves = uw bericht bevat verschillende zetten ({ $moves }); stuur één zet (eventueel met de notatie ervoor, bijvoorbeeld 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` lijkt op een zet, maar is er geen: { $error }
unclear-algebraic = `{ $text }` is algebraïsche notatie; deze partij wordt in numerieke notatie gespeeld (bijvoorbeeld 5254 voor e2-e4), dus er is niets omgezet
unclear-number-in-prose = `{ $text }` staat midden in een zin en is misschien uw zet, misschien niet; schrijf de zet op een eigen regel, bijvoorbeeld 13. 5254
unclear-vague-draw = `{ $text }`: schrijf "remise aanbieden", "remise aangenomen" of "remise geweigerd"
unclear-uncertain = `{ $text }` noemt een opdracht die niet ongedaan kan worden gemaakt, maar niet als duidelijke uitspraak van uzelf (ze staat in een vraag, een voorwaarde, een citaat, met een ontkenning, naast woorden over iemand anders of in het onderwerp); als u het meent, schrijf haar dan alleen op een regel van het bericht, bijvoorbeeld "opgeven"
unclear-mixed-commands = uw bericht bevat meer dan één opdracht ({ $commands }); stuur ze een voor een
unclear-too-many-commands = uw bericht bevat { $count } zetten en opdrachten, meer dan de { $limit } die één bericht mag bevatten; stuur alleen uw zet
unclear-malformed = het bericht kon niet als e-mail worden gelezen

## Meldingen buiten het spel

too-large =
    Uw bericht van { $size } bytes is groter dan deze arbiter leest ({ $limit } bytes) en is daarom niet gelezen.
    Stuur een korte mail in platte tekst met alleen uw zet, zonder bijlagen.
help =
    Dit is { $name } <{ $address }>, een arbiter voor correspondentieschaak.

    Zetten worden alleen aangenomen op uw eigen partijadres. Dat ziet eruit als
    { $local }+<partij>-<sleutel>@{ $domain } en is u gestuurd toen uw partij werd aangemaakt.
    Beantwoord gewoon een willekeurige mail van uw partij.

    Zetten worden geschreven in de numerieke ICCF-notatie: beginveld en dan eindveld,
    elk veld als cijfer van de lijn en dan van de rij (e2-e4 is 5254; rokeren is de zet
    van de koning, 5171; bij promotie komt er 1 dame, 2 toren, 3 loper, 4 paard achter).

    Opdrachten: een zet, opgeven, remise aanbieden, remise aangenomen, remise geweigerd, remise claimen, stelling.
auth-failed =
    Er kwam een bericht voor partij { $game } binnen met uw adres ({ $from }) als afzender, maar de mailserver
    van de club kon niet bevestigen dat het van u kwam ({ $found }). Het is niet uitgevoerd.
    Heeft u het gestuurd, controleer dan of uw provider uw mail ondertekent (DKIM) en DMARC publiceert;
    zo niet, dan heeft iemand geprobeerd namens u te zetten.
auth-found-summary = de controles gaven: { $summary }
auth-found-nothing = hij vond in het bericht geen bewijs van de afzender
stranger =
    Op uw adres voor partij { $game } kwam een bericht van { $from }, en dat is niet uw geregistreerde adres ({ $registered }).
    Het is niet uitgevoerd. Zetten tellen alleen als ze van uw geregistreerde adres komen.
    Was u het niet, dan hoeft u niets te doen; denkt u dat iemand anders uw partijadres kent,
    vraag de organisator dan om een nieuw (wildt game rekey).
wrong-address =
    Uw bericht is gestuurd naar een adres dat voor partij { $game } niet van u is, dus het is niet uitgevoerd.
    Uw adres voor deze partij is:

        { $address }

    Beantwoord deze mail om het te bereiken.

# conditional
cond-subject = voorwaardelijke zetten
cond-subject-prepared = { $move } gespeeld uit uw voorwaardelijke zetten
cond-intro = Partij { $game }: uw voorwaardelijke zetten.
cond-stored = Uw voorwaardelijke zetten zijn opgeslagen:
cond-cancelled = Uw voorwaardelijke zetten zijn geannuleerd; er zijn er nu geen opgeslagen.
cond-rejected =
    Uw voorwaardelijke zetten zijn niet aanvaard: { $reason }.
    Uw eerdere voorwaardelijke zetten, als die er zijn, blijven zoals ze waren.
cond-move-counts = De zet in uw bericht wordt toch gespeeld.
cond-not-considered = Uw voorwaardelijke zetten zijn niet bekeken, omdat de rest van uw bericht geen duidelijke opdracht was; stuur ze opnieuw met uw zet.
cond-prepared-played = Partij { $game }: uw tegenstander speelde { $opponent }, en uw voorbereide antwoord { $answer } is meteen gespeeld.
cond-prepared-accepted = Partij { $game }: uw tegenstander speelde { $opponent } en bood remise aan; uw voorwaardelijke zetten hebben die aanvaard.
cond-remaining = Wat er over is van uw voorwaardelijke zetten:
cond-none-remain = Er zijn geen voorwaardelijke zetten meer: de volgende zet beantwoordt u zelf.
cond-relay-prepared = Uw tegenstander had deze zet vooraf voorbereid; hij is gespeeld zodra uw zet binnenkwam.
cond-off-tree = Uw voorwaardelijke zetten voorzagen { $opponent } niet en zijn daarom gewist: antwoord zelf.
cond-no-offer = Uw voorwaardelijke reeks eindigde met het aanvaarden van remise, maar { $opponent } kwam zonder remiseaanbod: er is niets gespeeld en uw voorwaardelijke zetten zijn op. Antwoord zelf.
cond-stale = Uw voorwaardelijke zetten passen niet meer bij de partij en zijn daarom gewist: antwoord zelf.

# clock
termination-time-forfeit = tijdsoverschrijding
subject-clock-reminder = herinnering: u bent aan zet
subject-clock-low-time = uw bedenktijd raakt op
clock-reminder =
    Partij { $game }: u bent aan zet, en sinds de zet van uw tegenstander binnenkwam zijn { $days } dagen verstreken.
    Stuur alstublieft uw zet; uw klok loopt door.
clock-low-time =
    Partij { $game }: er staan nog maar { $days } dagen op uw klok. Raakt die op, dan is de partij verloren op tijd.
clock-days-left = { $color ->
        [white] Wit
       *[black] Zwart
    }: nog { $days } dagen voor zetten { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Wit
       *[black] Zwart
    }: nog { $days } dagen
termination-adjudication = arbitrale beslissing
subject-clock-leave = verlof
subject-clock-ruling = beslissing over de klok
clock-leave-granted =
    Partij { $game }: { $color ->
            [white] Wit
           *[black] Zwart
        } heeft verlof van { $from } tot en met { $to }; de klok van { $color ->
            [white] Wit
           *[black] Zwart
        } loopt dan niet.
clock-days-given =
    Partij { $game }: door een beslissing van de organisator krijgt de klok van { $color ->
            [white] Wit
           *[black] Zwart
        } { $days } dagen erbij.
clock-adjudicated =
    Partij { $game } is door de organisator beslist: { $result }.
    Reden: { $reason }
clock-leave-refused = Partij { $game }: uw verlof is niet vastgelegd: { $why }.
clock-leave-why-ends-before-start = het eindigt ({ $to }) voordat het begint ({ $from })
clock-leave-why-in-past = het begint ({ $from }) vóór vandaag ({ $today })
clock-leave-why-overlaps = het overlapt uw verlof van { $from } tot { $to }
clock-leave-why-exceeds = het vraagt { $asked } dagen van { $year }, maar van uw { $allowance } dagen per jaar zijn er nog maar { $remaining } over
clock-leave-why-overlaps-organiser = het overlapt het verlof van { $from } tot { $to }
clock-leave-why-exceeds-organiser = het vraagt { $asked } dagen van { $year }, maar van de { $allowance } dagen per jaar zijn er nog maar { $remaining } over
clock-leave-why-unclear = de data zijn niet te lezen; schrijf bijvoorbeeld: verlof 20.12.2026 tot 03.01.2027
clock-leave-cancelled = Partij { $game }: het verlof van { $color ->
        [white] Wit
       *[black] Zwart
    } vanaf { $from } is geschrapt; de klok loopt weer.
clock-leave-nothing-to-cancel = Partij { $game }: er is geen lopend of komend verlof om te schrappen.

# event
termination-forfeit = reglementair
termination-annulled = geannuleerd door de organisator
subject-event-welcome = { $event }: uw partijen
event-welcome-intro = Welkom in { $event }, een gesloten groep waarin iedereen tegen iedereen speelt (spelers: { $players }; uw partijen: { $games }). Al uw partijen beginnen nu:
event-welcome-game = Partij { $game }: u speelt met { $color ->
        [white] wit
       *[black] zwart
    } tegen { $opponent } - zetten naar { $address }
event-welcome-outro = Elke partij heeft ook een eigen welkomstmail: beantwoord die mail om uw zetten in die partij te sturen.
subject-event-withdrawal = { $event }: een speler heeft zich teruggetrokken
event-withdrawal-forfeit = { $opponent } heeft zich teruggetrokken uit { $event }. Uw partij { $game } tegen deze speler telt als reglementaire winst voor u; ze is afgelopen.
event-withdrawal-annulled = { $opponent } heeft zich teruggetrokken uit { $event } voordat de helft van de partijen was beëindigd; de lopende partijen worden geannuleerd. Uw partij { $game } tegen deze speler telt voor niemand; ze is afgelopen.
event-standing = Stand in { $event }: plaats { $rank } van { $players }, punten: { $points }, beëindigde partijen: { $played }.

## A greeting when the player's name is known

greeting = Beste { $name },

## The player chose a language

subject-language-set = taal: Nederlands
language-set = Vanaf nu schrijft wildt u in het Nederlands. Voor een andere taal antwoordt u met een regel als "taal: English".

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Bericht van uw tegenstander: { $note }
subject-xfcc-password = uw Xfcc-wachtwoord
xfcc-password =
    Uw nieuwe wachtwoord om vanuit een schaakprogramma te spelen (Xfcc): { $password }
    Gebruikersnaam: { $user }
    Een eerder wachtwoord werkt niet meer. Voor een nieuw wachtwoord schrijft u "xfcc password" naar een van uw partijadressen.
