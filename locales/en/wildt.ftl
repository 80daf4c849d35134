# wildt: every text a player can receive, in English (the reference language).
#
# Variables: $game (game number), $move / $number / $square / $given… (numeric
# notation as written: never translate), $color and $offerer (white | black),
# $piece (king | queen | rook | bishop | knight | pawn), $count and other
# counts (plural forms). Command words in quotes must be words wildt reads.

## Subjects (after the untranslated "[wildt #N]" prefix)

subject-new-game = new game: you play { $color ->
        [white] White
       *[black] Black
    } against { $opponent }
subject-new-address = your new game address
subject-move-accepted = { $move } accepted
subject-your-move = { $move } - your move
subject-draw-offer-sent = draw offer sent
subject-draw-offered = draw offered
subject-draw-declined = draw declined
subject-status = status
subject-not-played = not played
subject-game-over = game over { $result }
subject-too-large = message too large
subject-how-to-play = how to play
subject-security = a message was not played
subject-wrong-address = wrong game address
subject-not-understood = not understood

## Opening a game

welcome-intro = Game { $game }: you play { $color ->
        [white] White
       *[black] Black
    } against { $opponent }.
welcome-intro-event = Game { $game } ({ $event }): you play { $color ->
        [white] White
       *[black] Black
    } against { $opponent }.
welcome-address = Your address for this game is { $address } - reply to this mail to reach it.
notation-explained =
    Moves are written in ICCF numeric notation: from-square then to-square, each square
    as file digit then rank digit (e2-e4 is 5254; castling is the king's move, 5171;
    a promotion adds 1 queen, 2 rook, 3 bishop, 4 knight).
new-address =
    The organiser gave you a new address for game { $game } (you play { $color ->
        [white] White
       *[black] Black
    } against { $opponent }).
    Your address for this game is now { $address } - reply to this mail to reach it.
    Mail to your old address is no longer played.

## Board, record, status

record-line = Record: { $record }
record-empty = Record: (no moves yet)
status-to-move = { $color ->
        [white] White
       *[black] Black
    } to move ({ $number })
status-to-move-draw-offered = { $color ->
        [white] White
       *[black] Black
    } to move ({ $number }); { $offerer ->
        [white] White
       *[black] Black
    } has offered a draw
status-game-over = Game over: { $result } ({ $termination })
board-legend = K king, Q queen, R rook, B bishop, N knight, P pawn; upper case White
board-caption = { $color ->
        [white] The board from White's side
       *[black] The board from Black's side
    }
record-heading = Record
column-white = White
column-black = Black

## How a game ends

termination-checkmate = checkmate
termination-stalemate = stalemate
termination-insufficient-material = insufficient material
termination-resignation = resignation
termination-draw-agreed = draw agreed
termination-threefold-repetition = threefold repetition
termination-fifty-move-rule = 50-move rule

## How to answer

footer-your-move =
    Reply to this mail with your move in numeric notation, e.g. "{ $number } { $example }".
    Other commands: resign, offer draw, accept draw, decline draw, claim draw, status.
footer-wait = You will receive your opponent's move by mail.

## Verdicts

moved-mine = Game { $game }: your move { $move } ({ $san }) is recorded.
moved-mine-draw-offer = Your draw offer has been passed on.
moved-theirs = Game { $game }: { $color ->
        [white] White
       *[black] Black
    } played { $move } ({ $san }).
moved-theirs-draw-offer = With this move your opponent offers a draw: reply "accept draw", or simply send your move to decline.
ended-resigned = { $color ->
        [white] White
       *[black] Black
    } resigned.
ended-draw-accepted = { $color ->
        [white] White
       *[black] Black
    } accepted the draw.
ended-draw-claimed = { $color ->
        [white] White
       *[black] Black
    } claimed a draw by { $termination }; the claim is correct.
draw-offer-sent = Game { $game }: your draw offer has been passed on to your opponent.
draw-offered =
    Game { $game }: { $color ->
        [white] White
       *[black] Black
    } offers a draw.
    Reply "accept draw" or "decline draw"; a move also declines it.
draw-declined-mine = Game { $game }: you declined the draw offer.
draw-declined-theirs = Game { $game }: { $color ->
        [white] White
       *[black] Black
    } declined your draw offer. The game goes on.
status-intro = Game { $game }: the position now.
rejected-intro = Game { $game }: your message was not played.
rejected-reason = Reason: { $reason }.
rejected-what-to-do = What to do: { $todo }
game-over-body = Game { $game } is over: { $result } ({ $termination }).
game-over-thanks = Thank you for the game.

## What to do after a rejection

todo-game-over = nothing: the game is finished. Ask the organiser for a new game.
todo-wait = wait for your opponent's move; it will reach you by mail.
todo-compare-records = compare your record with the one below, then send your move as "{ $number } <move>".
todo-compare-records-later = compare your record with the one below, then send your move as "{ $number } <move>" when it is your turn.
todo-send-one = send only your move for { $number }.
todo-send-if-yours = send "{ $number } { $move }" if that is your move.
todo-choose-promotion = send one of { $options } (5th digit: 1 queen, 2 rook, 3 bishop, 4 knight).
todo-send-legal = send a legal move for { $number }; the board is below.
todo-offer-draw-yourself = to offer a draw yourself, write "offer draw" (with your move if you like).
todo-play-on = play on: send your move.

## Why a command was not carried out

reject-game-over = the game is over ({ $result }, { $termination }): no more moves are accepted
reject-not-your-turn = it is { $color ->
        [white] White's
       *[black] Black's
    } move: wait for your opponent's move
reject-wrong-number = you wrote move { $given } but the game is at move { $expected } ({ $color ->
        [white] White
       *[black] Black
    } to move): the two records are out of step
reject-echo-mismatch = at move { $number } you wrote { $given }, but the record has { $recorded }: the two records are out of step
reject-several-new-moves = your message holds { $count ->
        [one] { $count } new move
       *[other] { $count } new moves
    } ({ $moves }): send one move at a time
reject-already-recorded = { $number } { $move } is already in the record: send your next move
reject-illegal = { $number } { $move } is not possible: { $why }
reject-no-draw-offer = there is no draw offer from your opponent to answer
reject-own-draw-offer = the draw offer is yours: only your opponent can accept it
reject-claim-refused = a draw cannot be claimed: the position has occurred { $repetitions ->
        [one] once
       *[other] { $repetitions } times
    } (3 needed) and { $moves ->
        [one] { $moves } move has
       *[other] { $moves } moves have
    } been made without a capture or pawn move (50 needed)

## Why a move is not legal

illegal-no-piece = there is no piece on { $square }
illegal-opponents-piece = the piece on { $square } belongs to { $color ->
        [white] Black, and it is White's move
       *[black] White, and it is Black's move
    }
illegal-cannot-reach-no-moves = the { $piece ->
        [king] king
        [queen] queen
        [rook] rook
        [bishop] bishop
        [knight] knight
       *[pawn] pawn
    } on { $from } cannot reach { $to }; it has no legal move now
illegal-cannot-reach-moves = the { $piece ->
        [king] king
        [queen] queen
        [rook] rook
        [bishop] bishop
        [knight] knight
       *[pawn] pawn
    } on { $from } cannot reach { $to }; its legal moves are { $moves }
illegal-leaves-king-in-check = { $move } would leave your king on { $king } in check
illegal-castling = castling { $move } is not possible now: { $reason }
castling-right-lost = the king or that rook has already moved
castling-piece-in-the-way = a piece is in the way on { $square }
castling-in-check = the king is in check
castling-square-attacked = the king would pass or land on { $square }, which is attacked
illegal-promotion-digit-missing = a pawn reaching the last rank needs a 5th digit (1 queen, 2 rook, 3 bishop, 4 knight): { $options }
illegal-promotion-digit-not-allowed = { $move } is not a promotion, so it takes no 5th digit: write { $without }
illegal-old-promotion-form = { $given } is the old 4-digit promotion form; the standard form is { $standard }: send { $standard } if that is your move

## Why a text is not a move

parse-wrong-length = `{ $text }` has { $count ->
        [one] { $count } digit
       *[other] { $count } digits
    }: a move has 4 digits (5 for a promotion)
parse-not-a-digit = `{ $text }` contains `{ $char }`, which is not a digit: write moves as digits only, e.g. 5254
parse-not-a-square = { $square } is not a square: files and ranks run 1 to 8
parse-same-square = `{ $text }` starts and ends on { $square }: a move goes from one square to another
parse-bad-promotion-digit = `{ $text }` ends in { $digit }: the promotion digit is 1 (queen), 2 (rook), 3 (bishop) or 4 (knight)

## A message that is not one clear command

unclear-intro = Game { $game }: your message could not be read as one clear command, so nothing was played.
unclear-found = What was found: { $what }.
unclear-please =
    Please reply with only your move in numeric notation, e.g. "{ $number } 5254",
    or one of: resign, offer draw, accept draw, decline draw, claim draw, status.
unclear-nothing-found = no move or command was found in your message; write the move in numeric notation on a line of its own, e.g. 13. 5254
unclear-several-moves = your message holds different moves ({ $moves }); send one move (with the record if you like, e.g. 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` looks like a move but is not one: { $error }
unclear-algebraic = `{ $text }` is algebraic notation; this game is played in numeric notation (e.g. 5254 for e2-e4), so it was not converted
unclear-number-in-prose = `{ $text }` stands inside a sentence and may or may not be your move; send the move on a line of its own, e.g. 13. 5254
unclear-vague-draw = `{ $text }`: please write "offer draw", "accept draw" or "decline draw"
unclear-uncertain = `{ $text }` mentions a command that cannot be undone, but not as a plain statement of your own (it stands in a question, a condition, a quotation, with a negation, beside words about someone else, or in the subject); if you mean it, write it alone on a line of the message, e.g. "I resign"
unclear-mixed-commands = your message holds more than one command ({ $commands }); send one at a time
unclear-too-many-commands = your message holds { $count } moves and commands, more than the { $limit } one message may hold; send your move alone
unclear-malformed = the message could not be read as an e-mail

## Notices outside play

too-large =
    Your message of { $size } bytes is larger than this referee reads ({ $limit } bytes), so it was not read.
    Please send a short plain-text mail with just your move, without attachments.
help =
    This is { $name } <{ $address }>, a correspondence-chess referee.

    Moves are accepted only at your own game address, which looks like
    { $local }+<game>-<key>@{ $domain } and was sent to you when your game was created.
    Simply reply to any mail from your game.

    Moves are written in ICCF numeric notation: from-square then to-square,
    each square as file digit then rank digit (e2-e4 is 5254; castling is the
    king's move, 5171; a promotion adds 1 queen, 2 rook, 3 bishop, 4 knight).

    Commands: a move, resign, offer draw, accept draw, decline draw, claim draw, status.
auth-failed =
    A message for game { $game } arrived with your address ({ $from }) as sender, but the club's mail
    server could not confirm that it came from you ({ $found }). It was not played.
    If you sent it, check that your provider signs your mail (DKIM) and publishes DMARC;
    if you did not, someone tried to move for you.
auth-found-summary = its checks said: { $summary }
auth-found-nothing = it found no proof of the sender on the message
stranger =
    A message reached your address for game { $game } from { $from }, which is not your registered address ({ $registered }).
    It was not played. Moves count only when sent from your registered address.
    If it was not you, nothing needs doing; if you think your game address is known to someone else,
    ask the organiser for a new one (wildt game rekey).
wrong-address =
    Your message was sent to an address that is not yours for game { $game }, so it was not played.
    Your address for this game is:

        { $address }

    Reply to this mail to reach it.

# conditional
cond-subject = conditional moves
cond-subject-prepared = { $move } played from your conditional moves
cond-intro = Game { $game }: your conditional moves.
cond-stored = Your conditional moves are stored:
cond-cancelled = Your conditional moves are cancelled; none are stored now.
cond-rejected =
    Your conditional moves were not accepted: { $reason }.
    Your earlier conditional moves, if any, stay as they were.
cond-move-counts = The move in your message is played all the same.
cond-not-considered = Your conditional moves were not looked at, because the rest of your message was not one clear command; send them again with your move.
cond-prepared-played = Game { $game }: your opponent played { $opponent }, and your prepared answer { $answer } was played at once.
cond-prepared-accepted = Game { $game }: your opponent played { $opponent } and offered a draw; your conditional moves accepted it.
cond-remaining = What remains of your conditional moves:
cond-none-remain = No conditional moves remain: you answer the next move by hand.
cond-relay-prepared = Your opponent had prepared this move in advance; it was played the moment your move arrived.
cond-off-tree = Your conditional moves did not foresee { $opponent }, so they are cleared: please answer by hand.
cond-no-offer = Your conditional line ended in accepting a draw, but { $opponent } came without a draw offer: nothing was played and your conditional moves are used up. Please answer by hand.
cond-stale = Your conditional moves no longer fit the game, so they are cleared: please answer by hand.

# clock
termination-time-forfeit = time forfeit
subject-clock-reminder = reminder: your move
subject-clock-low-time = your time is running out
clock-reminder =
    Game { $game }: it is your move, and { $days } days have passed since your opponent's move arrived.
    Please send your move; your clock keeps running.
clock-low-time =
    Game { $game }: only { $days } days are left on your clock. If it runs out, the game is lost on time.
clock-days-left = { $color ->
        [white] White
       *[black] Black
    }: { $days } days left for moves { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] White
       *[black] Black
    }: { $days } days left
termination-adjudication = adjudication
subject-clock-leave = leave
subject-clock-ruling = ruling on the clock
clock-leave-granted =
    Game { $game }: { $color ->
            [white] White
           *[black] Black
        } is on leave from { $from } to { $to } (both days included); { $color ->
            [white] White
           *[black] Black
        }'s clock does not run then.
clock-days-given =
    Game { $game }: by a ruling of the organiser, { $color ->
            [white] White
           *[black] Black
        }'s clock gains { $days } days.
clock-adjudicated =
    Game { $game } was decided by the organiser: { $result }.
    Reason: { $reason }
clock-leave-refused = Game { $game }: your leave was not recorded: { $why }.
clock-leave-why-ends-before-start = it ends ({ $to }) before it starts ({ $from })
clock-leave-why-in-past = it starts ({ $from }) before today ({ $today })
clock-leave-why-overlaps = it overlaps your leave from { $from } to { $to }
clock-leave-why-exceeds = it takes { $asked } days of { $year }, but only { $remaining } of your { $allowance } days a year are left
clock-leave-why-overlaps-organiser = it overlaps the leave from { $from } to { $to }
clock-leave-why-exceeds-organiser = it takes { $asked } days of { $year }, but only { $remaining } of the { $allowance } days a year are left
clock-leave-why-unclear = its dates could not be read; write, for example: leave 2026-12-20 to 2027-01-03
clock-leave-cancelled = Game { $game }: the leave of { $color ->
        [white] White
       *[black] Black
    } from { $from } is cancelled; the clock runs again.
clock-leave-nothing-to-cancel = Game { $game }: there is no current or coming leave to cancel.

# event
termination-forfeit = forfeit
termination-annulled = annulled by the organiser
subject-event-welcome = { $event }: your games
event-welcome-intro = Welcome to { $event }, an all-play-all section (players: { $players }; your games: { $games }). All your games start now:
event-welcome-game = Game { $game }: you play { $color ->
        [white] White
       *[black] Black
    } against { $opponent } - send your moves to { $address }
event-welcome-outro = Each game also has its own welcome mail: reply to that mail to send your moves in that game.
subject-event-withdrawal = { $event }: a player withdrew
event-withdrawal-forfeit = { $opponent } has withdrawn from { $event }. Your game { $game } against them is scored as a win for you by forfeit; it is over.
event-withdrawal-annulled = { $opponent } has withdrawn from { $event } having finished fewer than half of their games, so their unfinished games are annulled. Your game { $game } against them counts for neither side; it is over.
event-standing = Standing in { $event }: place { $rank } of { $players }, points: { $points }, games finished: { $played }.

## A greeting when the player's name is known

greeting = Hello { $name },

## The player chose a language

subject-language-set = language: English
language-set = From now on wildt writes to you in English. To choose another language, reply with a line such as "language: deutsch".

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Your opponent's message: { $note }
subject-xfcc-password = your Xfcc password
xfcc-password =
    Your new password for playing from a chess program (Xfcc): { $password }
    User name: { $user }
    Any password you had before no longer works. To get another one, write "xfcc password" to any of your game addresses.
