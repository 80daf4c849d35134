# wildt: všechny texty, které může hráč dostat, česky.
# Proměnné jako v locales/en/wildt.ftl; tahy a čísla nikdy nepřekládat.

## Předměty zpráv

subject-new-game = nová partie: hrajete { $color ->
        [white] bílými
       *[black] černými
    } proti { $opponent }
subject-new-address = vaše nová adresa partie
subject-move-accepted = { $move } přijat
subject-your-move = { $move } - jste na tahu
subject-draw-offer-sent = nabídka remízy předána
subject-draw-offered = nabídka remízy
subject-draw-declined = remíza odmítnuta
subject-status = pozice
subject-not-played = neprovedeno
subject-game-over = partie skončila { $result }
subject-too-large = zpráva je příliš velká
subject-how-to-play = jak hrát
subject-security = zpráva nebyla provedena
subject-wrong-address = nesprávná adresa partie
subject-not-understood = nesrozumitelné

## Začátek partie

welcome-intro = Partie { $game }: hrajete { $color ->
        [white] bílými
       *[black] černými
    } proti { $opponent }.
welcome-intro-event = Partie { $game } ({ $event }): hrajete { $color ->
        [white] bílými
       *[black] černými
    } proti { $opponent }.
welcome-address = Vaše adresa pro tuto partii je { $address } - stačí odpovědět na tento e-mail.
notation-explained =
    Tahy se zapisují v číselné notaci ICCF: výchozí pole a pak cílové pole, každé pole jako číslice
    sloupce a pak číslice řady (e2-e4 je 5254; rošáda je tah krále, 5171; při proměně se připojí
    1 dáma, 2 věž, 3 střelec, 4 jezdec).
new-address =
    Organizátor vám přidělil novou adresu pro partii { $game } (hrajete { $color ->
        [white] bílými
       *[black] černými
    } proti { $opponent }).
    Vaše adresa pro tuto partii je nyní { $address } - stačí odpovědět na tento e-mail.
    Zprávy na vaši starou adresu se už neprovádějí.

## Šachovnice, zápis, stav

record-line = Zápis: { $record }
record-empty = Zápis: (zatím žádné tahy)
status-to-move = Na tahu je { $color ->
        [white] bílý
       *[black] černý
    } ({ $number })
status-to-move-draw-offered = Na tahu je { $color ->
        [white] bílý
       *[black] černý
    } ({ $number }); { $offerer ->
        [white] bílý
       *[black] černý
    } nabídl remízu
status-game-over = Partie skončila: { $result } ({ $termination })
board-legend = kameny označené anglickými písmeny: K král, Q dáma, R věž, B střelec, N jezdec, P pěšec; velká písmena jsou bílé kameny
board-caption = { $color ->
        [white] Šachovnice z pohledu bílého
       *[black] Šachovnice z pohledu černého
    }
record-heading = Zápis partie
column-white = Bílý
column-black = Černý

## Konec partie

termination-checkmate = mat
termination-stalemate = pat
termination-insufficient-material = nedostatečný materiál
termination-resignation = vzdání
termination-draw-agreed = remíza dohodou
termination-threefold-repetition = trojí opakování pozice
termination-fifty-move-rule = pravidlo 50 tahů

## Jak odpovědět

footer-your-move =
    Odpovězte na tento e-mail svým tahem v číselné notaci, např. „{ $number } { $example }“.
    Další příkazy: vzdávám, nabízím remízu, přijímám remízu, odmítám remízu, reklamuji remízu, šachovnice.
footer-wait = Tah soupeře dostanete e-mailem.

## Rozhodnutí

moved-mine = Partie { $game }: váš tah { $move } ({ $san }) je zapsán.
moved-mine-draw-offer = Vaše nabídka remízy byla předána.
moved-theirs = Partie { $game }: { $color ->
        [white] bílý
       *[black] černý
    } zahrál { $move } ({ $san }).
moved-theirs-draw-offer = Tímto tahem vám soupeř nabízí remízu: odpovězte „přijímám remízu“, nebo ji odmítněte tím, že prostě pošlete svůj tah.
ended-resigned = { $color ->
        [white] Bílý
       *[black] Černý
    } se vzdal.
ended-draw-accepted = { $color ->
        [white] Bílý
       *[black] Černý
    } přijal remízu.
ended-draw-claimed = { $color ->
        [white] Bílý
       *[black] Černý
    } reklamoval remízu ({ $termination }); reklamace je oprávněná.
draw-offer-sent = Partie { $game }: vaše nabídka remízy byla předána soupeři.
draw-offered =
    Partie { $game }: { $color ->
        [white] bílý
       *[black] černý
    } nabízí remízu.
    Odpovězte „přijímám remízu“ nebo „odmítám remízu“; nabídku odmítá i zahraný tah.
draw-declined-mine = Partie { $game }: nabídku remízy jste odmítli.
draw-declined-theirs = Partie { $game }: { $color ->
        [white] bílý
       *[black] černý
    } odmítl vaši nabídku remízy. Partie pokračuje.
status-intro = Partie { $game }: aktuální pozice.
rejected-intro = Partie { $game }: vaše zpráva nebyla provedena.
rejected-reason = Důvod: { $reason }.
rejected-what-to-do = Co dělat: { $todo }
game-over-body = Partie { $game } skončila: { $result } ({ $termination }).
game-over-thanks = Děkujeme za partii.

## Co dělat po odmítnutí

todo-game-over = nic: partie skončila. Požádejte organizátora o novou partii.
todo-wait = počkejte na tah soupeře; přijde vám e-mailem.
todo-compare-records = porovnejte svůj zápis se zápisem níže a pak pošlete svůj tah ve tvaru „{ $number } <tah>“.
todo-compare-records-later = porovnejte svůj zápis se zápisem níže a až budete na tahu, pošlete svůj tah ve tvaru „{ $number } <tah>“.
todo-send-one = pošlete jen svůj tah pro { $number }.
todo-send-if-yours = pošlete „{ $number } { $move }“, pokud je to váš tah.
todo-choose-promotion = pošlete jeden z těchto tahů: { $options } (5. číslice: 1 dáma, 2 věž, 3 střelec, 4 jezdec).
todo-send-legal = pošlete platný tah pro { $number }; šachovnice je níže.
todo-offer-draw-yourself = chcete-li sami nabídnout remízu, napište „nabízím remízu“ (klidně spolu se svým tahem).
todo-play-on = hrajte dál: pošlete svůj tah.

## Proč příkaz nebyl proveden

reject-game-over = partie skončila ({ $result }, { $termination }): další tahy se už nepřijímají
reject-not-your-turn = na tahu je { $color ->
        [white] bílý
       *[black] černý
    }: počkejte na tah soupeře
reject-wrong-number = ve zprávě je tah { $given }, ale partie je u tahu { $expected } (na tahu je { $color ->
        [white] bílý
       *[black] černý
    }): oba zápisy se rozcházejí
reject-echo-mismatch = u tahu { $number } je ve zprávě { $given }, ale v zápisu je { $recorded }: oba zápisy se rozcházejí
reject-several-new-moves = vaše zpráva obsahuje { $count ->
        [one] { $count } nový tah
        [few] { $count } nové tahy
       *[other] { $count } nových tahů
    } ({ $moves }): posílejte vždy jen jeden tah
reject-already-recorded = { $number } { $move } už je v zápisu: pošlete svůj další tah
reject-illegal = { $number } { $move } není možný: { $why }
reject-no-draw-offer = soupeř nenabídl remízu, takže není na co odpovídat
reject-own-draw-offer = nabídka remízy je vaše: přijmout ji může jen soupeř
reject-claim-refused = remízu nelze reklamovat: pozice nastala { $repetitions ->
        [one] jednou
        [few] { $repetitions }krát
       *[other] { $repetitions }krát
    } (je potřeba 3) a bez braní či tahu pěšcem { $moves ->
        [one] byl zahrán { $moves } tah
        [few] byly zahrány { $moves } tahy
       *[other] bylo zahráno { $moves } tahů
    } (je potřeba 50)

## Proč tah není platný

illegal-no-piece = na poli { $square } nestojí žádný kámen
illegal-opponents-piece = kámen na poli { $square } patří { $color ->
        [white] černému, a na tahu je bílý
       *[black] bílému, a na tahu je černý
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] král
        [queen] dáma
        [rook] věž
        [bishop] střelec
        [knight] jezdec
       *[pawn] pěšec
    } na poli { $from } se nemůže dostat na { $to }; teď nemá žádný platný tah
illegal-cannot-reach-moves = { $piece ->
        [king] král
        [queen] dáma
        [rook] věž
        [bishop] střelec
        [knight] jezdec
       *[pawn] pěšec
    } na poli { $from } se nemůže dostat na { $to }; { $piece ->
        [queen] její
        [rook] její
       *[other] jeho
    } platné tahy jsou { $moves }
illegal-leaves-king-in-check = po { $move } by váš král na poli { $king } zůstal v šachu
illegal-castling = rošáda { $move } teď není možná: { $reason }
castling-right-lost = král nebo tato věž už táhli
castling-piece-in-the-way = v cestě stojí kámen na poli { $square }
castling-in-check = král je v šachu
castling-square-attacked = král by přešel přes pole { $square } nebo na něm skončil, a to pole je napadené
illegal-promotion-digit-missing = pěšec, který dojde na poslední řadu, potřebuje 5. číslici (1 dáma, 2 věž, 3 střelec, 4 jezdec): { $options }
illegal-promotion-digit-not-allowed = { $move } není proměna, proto nemá 5. číslici: napište { $without }
illegal-old-promotion-form = { $given } je starý čtyřmístný zápis proměny; standardní zápis je { $standard }: pošlete { $standard }, pokud je to váš tah

## Proč text není tah

parse-wrong-length = `{ $text }` má { $count ->
        [one] { $count } číslici
        [few] { $count } číslice
       *[other] { $count } číslic
    }: tah má 4 číslice (5 při proměně)
parse-not-a-digit = `{ $text }` obsahuje `{ $char }`, což není číslice: pište tahy jen číslicemi, např. 5254
parse-not-a-square = { $square } není pole: sloupce a řady jsou číslovány od 1 do 8
parse-same-square = `{ $text }` začíná i končí na poli { $square }: tah vede z jednoho pole na jiné
parse-bad-promotion-digit = `{ $text }` končí číslicí { $digit }: číslice proměny je 1 (dáma), 2 (věž), 3 (střelec) nebo 4 (jezdec)

## Zpráva bez jasného příkazu

unclear-intro = Partie { $game }: vaši zprávu nešlo přečíst jako jeden jasný příkaz, proto se nic neprovedlo.
unclear-found = Co bylo nalezeno: { $what }.
unclear-please =
    Odpovězte prosím jen svým tahem v číselné notaci, např. „{ $number } 5254“,
    nebo jedním z příkazů: vzdávám, nabízím remízu, přijímám remízu, odmítám remízu, reklamuji remízu, šachovnice.
unclear-nothing-found = ve vaší zprávě nebyl nalezen žádný tah ani příkaz; napište tah v číselné notaci na samostatný řádek, např. 13. 5254
unclear-several-moves = vaše zpráva obsahuje různé tahy ({ $moves }); pošlete jeden tah (klidně se zápisem před ním, např. 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` vypadá jako tah, ale tah to není: { $error }
unclear-algebraic = `{ $text }` je algebraická notace; tato partie se hraje v číselné notaci (např. 5254 pro e2-e4), proto nebyl tah převeden
unclear-number-in-prose = `{ $text }` stojí uprostřed věty a může, ale nemusí být vaším tahem; napište tah na samostatný řádek, např. 13. 5254
unclear-vague-draw = `{ $text }`: napište prosím „nabízím remízu“, „přijímám remízu“ nebo „odmítám remízu“
unclear-uncertain = `{ $text }` zmiňuje příkaz, který nelze vzít zpět, ale ne jako jasné prohlášení za sebe (stojí v otázce, v podmínce, v citaci, se záporem, vedle slov o někom jiném nebo v předmětu); pokud ho myslíte vážně, napište ho samotný na řádek zprávy (např. „vzdávám“)
unclear-mixed-commands = vaše zpráva obsahuje více než jeden příkaz ({ $commands }); posílejte je jednotlivě
unclear-too-many-commands = vaše zpráva obsahuje { $count ->
        [one] { $count } tah či příkaz
        [few] { $count } tahy a příkazy
       *[other] { $count } tahů a příkazů
    }, víc, než jedna zpráva smí obsahovat ({ $limit }); pošlete jen svůj tah
unclear-malformed = zprávu nešlo přečíst jako e-mail

## Oznámení mimo hru

too-large =
    Vaše zpráva má { $size } bajtů, víc, než tento rozhodčí čte ({ $limit } bajtů), proto nebyla přečtena.
    Pošlete prosím krátký e-mail v prostém textu jen s tahem, bez příloh.
help =
    Zde { $name } <{ $address }>, rozhodčí korespondenčních šachů.

    Tahy se přijímají jen na vaší vlastní adrese partie, která vypadá takto:
    { $local }+<partie>-<klíč>@{ $domain } a byla vám zaslána při založení partie.
    Stačí odpovědět na kterýkoli e-mail z vaší partie.

    Tahy se zapisují v číselné notaci ICCF: výchozí pole a pak cílové pole, každé pole
    jako číslice sloupce a pak číslice řady (e2-e4 je 5254; rošáda je tah krále, 5171;
    při proměně se připojí 1 dáma, 2 věž, 3 střelec, 4 jezdec).

    Příkazy: tah, vzdávám, nabízím remízu, přijímám remízu, odmítám remízu, reklamuji remízu, šachovnice.
auth-failed =
    Zpráva pro partii { $game } přišla s vaší adresou ({ $from }) jako odesílatelem, ale poštovní server
    klubu nemohl potvrdit, že pochází od vás ({ $found }). Nebyla provedena.
    Pokud jste ji poslali vy, ověřte, že váš poskytovatel podepisuje vaši poštu (DKIM) a zveřejňuje DMARC;
    pokud ne, někdo se pokusil táhnout za vás.
auth-found-summary = jeho kontroly uvedly: { $summary }
auth-found-nothing = ve zprávě nenašel žádný doklad o odesílateli
stranger =
    Na vaši adresu pro partii { $game } přišla zpráva od { $from }, což není vaše registrovaná adresa ({ $registered }).
    Nebyla provedena. Tahy platí, jen když přijdou z vaší registrované adresy.
    Pokud jste to nebyli vy, nemusíte nic dělat; pokud si myslíte, že vaši adresu partie zná někdo jiný,
    požádejte organizátora o novou (wildt game rekey).
wrong-address =
    Vaše zpráva byla poslána na adresu, která pro partii { $game } není vaše, proto nebyla provedena.
    Vaše adresa pro tuto partii je:

        { $address }

    Odpovězte na tento e-mail a dostanete se na ni.

# conditional
cond-subject = podmíněné tahy
cond-subject-prepared = { $move } zahráno z vašich podmíněných tahů
cond-intro = Partie { $game }: vaše podmíněné tahy.
cond-stored = Vaše podmíněné tahy jsou uloženy:
cond-cancelled = Vaše podmíněné tahy jsou zrušeny; žádné už nejsou uloženy.
cond-rejected =
    Vaše podmíněné tahy nebyly přijaty: { $reason }.
    Vaše dřívější podmíněné tahy, pokud nějaké jsou, zůstávají beze změny.
cond-move-counts = Tah z vaší zprávy se přesto hraje.
cond-not-considered = Vaše podmíněné tahy nebyly posouzeny, protože zbytek zprávy nebyl jeden jasný příkaz; pošlete je znovu se svým tahem.
cond-prepared-played = Partie { $game }: soupeř zahrál { $opponent } a vaše připravená odpověď { $answer } byla ihned zahrána.
cond-prepared-accepted = Partie { $game }: soupeř zahrál { $opponent } a nabídl remízu; vaše podmíněné tahy ji přijaly.
cond-remaining = Co zbývá z vašich podmíněných tahů:
cond-none-remain = Nezbývají žádné podmíněné tahy: na další tah odpovíte ručně.
cond-relay-prepared = Soupeř si tento tah připravil předem; byl zahrán, jakmile dorazil váš tah.
cond-off-tree = Vaše podmíněné tahy nepočítaly s { $opponent }, proto jsou smazány: odpovězte ručně.
cond-no-offer = Vaše podmíněná řada končila přijetím remízy, ale { $opponent } přišel bez nabídky remízy: nic nebylo zahráno a vaše podmíněné tahy jsou vyčerpány. Odpovězte ručně.
cond-stale = Vaše podmíněné tahy už neodpovídají partii, proto jsou smazány: odpovězte ručně.

# clock
termination-time-forfeit = překročení času
subject-clock-reminder = připomínka: jste na tahu
subject-clock-low-time = dochází vám čas
clock-reminder =
    Partie { $game }: jste na tahu a od doručení soupeřova tahu uplynulo dní: { $days }.
    Pošlete prosím svůj tah; vaše hodiny dál běží.
clock-low-time =
    Partie { $game }: na vašich hodinách zbývá už jen dní: { $days }. Když čas vyprší, partie je prohraná na čas.
clock-days-left = { $color ->
        [white] Bílý
       *[black] Černý
    }: zbývá dní: { $days } na tahy { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Bílý
       *[black] Černý
    }: zbývá dní: { $days }
termination-adjudication = rozhodnutí rozhodčího
subject-clock-leave = dovolená
subject-clock-ruling = rozhodnutí o čase
clock-leave-granted =
    Partie { $game }: { $color ->
            [white] Bílý
           *[black] Černý
        } má dovolenou od { $from } do { $to } (oba dny včetně); jeho hodiny mezitím neběží.
clock-days-given =
    Partie { $game }: rozhodnutím pořadatele dostávají hodiny strany { $color ->
            [white] Bílý
           *[black] Černý
        } dní: { $days }.
clock-adjudicated =
    Partie { $game } byla rozhodnuta pořadatelem: { $result }.
    Důvod: { $reason }
clock-leave-refused = Partie { $game }: vaše dovolená nebyla zapsána: { $why }.
clock-leave-why-ends-before-start = končí ({ $to }) dřív, než začíná ({ $from })
clock-leave-why-in-past = začíná ({ $from }) před dneškem ({ $today })
clock-leave-why-overlaps = překrývá se s vaší dovolenou od { $from } do { $to }
clock-leave-why-exceeds = potřebuje dní z roku { $year }: { $asked }, ale z vašich { $allowance } dní ročně zbývá jen { $remaining }
clock-leave-why-overlaps-organiser = překrývá se s dovolenou od { $from } do { $to }
clock-leave-why-exceeds-organiser = potřebuje dní z roku { $year }: { $asked }, ale z { $allowance } dní ročně zbývá jen { $remaining }
clock-leave-why-unclear = data nejdou přečíst; napište například: dovolená 20.12.2026 do 03.01.2027
clock-leave-cancelled = Partie { $game }: dovolená strany { $color ->
        [white] Bílý
       *[black] Černý
    } od { $from } je zrušena; hodiny opět běží.
clock-leave-nothing-to-cancel = Partie { $game }: není žádná probíhající ani budoucí dovolená ke zrušení.

# event
termination-forfeit = kontumace
termination-annulled = anulována pořadatelem
subject-event-welcome = { $event }: vaše partie
event-welcome-intro = Vítejte v { $event }, turnaji každý s každým (hráči: { $players }; vaše partie: { $games }). Všechny vaše partie začínají nyní:
event-welcome-game = Partie { $game }: hrajete { $color ->
        [white] bílými
       *[black] černými
    } proti { $opponent } - tahy posílejte na { $address }
event-welcome-outro = Každá partie má také vlastní uvítací e-mail: odpovězte na něj a pošlete tak tahy v této partii.
subject-event-withdrawal = { $event }: hráč odstoupil
event-withdrawal-forfeit = { $opponent } odstoupil z { $event }. Vaše partie { $game } s tímto hráčem se počítá jako vaše výhra kontumačně; je ukončena.
event-withdrawal-annulled = { $opponent } odstoupil z { $event } dříve, než dohrál polovinu svých partií; jeho nedohrané partie se anulují. Vaše partie { $game } s tímto hráčem se nepočítá nikomu; je ukončena.
event-standing = Pořadí v { $event }: místo { $rank } z { $players }, body: { $points }, dohrané partie: { $played }.

## A greeting when the player's name is known

greeting = Dobrý den, { $name },

## The player chose a language

subject-language-set = jazyk: čeština
language-set = Od této chvíle vám wildt píše česky. Jiný jazyk zvolíte odpovědí s řádkem jako „jazyk: English“.

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Zpráva od soupeře: { $note }
subject-xfcc-password = vaše heslo Xfcc
xfcc-password =
    Vaše nové heslo pro hraní ze šachového programu (Xfcc): { $password }
    Uživatelské jméno: { $user }
    Dřívější heslo už neplatí. Nové získáte, když napíšete "xfcc password" na kteroukoli adresu své partie.
