# wildt : tous les textes qu'un joueur peut recevoir, en français.
# Variables comme dans locales/en/wildt.ftl ; ne jamais traduire les coups ni les numéros.

## Objets

subject-new-game = nouvelle partie : vous jouez { $color ->
        [white] les Blancs
       *[black] les Noirs
    } contre { $opponent }
subject-new-address = votre nouvelle adresse de partie
subject-move-accepted = { $move } accepté
subject-your-move = { $move } - à vous de jouer
subject-draw-offer-sent = proposition de nulle transmise
subject-draw-offered = nulle proposée
subject-draw-declined = nulle refusée
subject-status = position
subject-not-played = non joué
subject-game-over = partie terminée { $result }
subject-too-large = message trop volumineux
subject-how-to-play = comment jouer
subject-security = un message n'a pas été joué
subject-wrong-address = mauvaise adresse de partie
subject-not-understood = non compris

## Début de partie

welcome-intro = Partie { $game } : vous jouez { $color ->
        [white] les Blancs
       *[black] les Noirs
    } contre { $opponent }.
welcome-intro-event = Partie { $game } ({ $event }) : vous jouez { $color ->
        [white] les Blancs
       *[black] les Noirs
    } contre { $opponent }.
welcome-address = Votre adresse pour cette partie est { $address } - il suffit de répondre à ce message.
notation-explained =
    Les coups s'écrivent en notation numérique ICCF : case de départ puis case d'arrivée, chaque case
    donnée par le chiffre de la colonne puis celui de la rangée (e2-e4 s'écrit 5254 ; le roque est le coup
    du roi, 5171 ; une promotion ajoute 1 dame, 2 tour, 3 fou, 4 cavalier).
new-address =
    L'organisateur vous a attribué une nouvelle adresse pour la partie { $game } (vous jouez { $color ->
        [white] les Blancs
       *[black] les Noirs
    } contre { $opponent }).
    Votre adresse pour cette partie est désormais { $address } - il suffit de répondre à ce message.
    Les messages envoyés à votre ancienne adresse ne sont plus joués.

## Échiquier, feuille de partie, situation

record-line = Coups : { $record }
record-empty = Coups : (aucun pour l'instant)
status-to-move = Trait aux { $color ->
        [white] Blancs
       *[black] Noirs
    } ({ $number })
status-to-move-draw-offered = Trait aux { $color ->
        [white] Blancs
       *[black] Noirs
    } ({ $number }) ; les { $offerer ->
        [white] Blancs
       *[black] Noirs
    } ont proposé nulle
status-game-over = Partie terminée : { $result } ({ $termination })
board-legend = pièces en lettres anglaises : K roi, Q dame, R tour, B fou, N cavalier, P pion ; majuscules pour les Blancs
board-caption = { $color ->
        [white] L'échiquier vu du côté des Blancs
       *[black] L'échiquier vu du côté des Noirs
    }
record-heading = Feuille de partie
column-white = Blancs
column-black = Noirs

## Fin de partie

termination-checkmate = échec et mat
termination-stalemate = pat
termination-insufficient-material = matériel insuffisant
termination-resignation = abandon
termination-draw-agreed = nulle par accord mutuel
termination-threefold-repetition = triple répétition
termination-fifty-move-rule = règle des 50 coups

## Comment répondre

footer-your-move =
    Répondez à ce message avec votre coup en notation numérique, par exemple « { $number } { $example } ».
    Autres commandes : j'abandonne, je propose nulle, j'accepte nulle, je refuse nulle, je réclame nulle, échiquier.
footer-wait = Vous recevrez le coup de votre adversaire par e-mail.

## Décisions

moved-mine = Partie { $game } : votre coup { $move } ({ $san }) est enregistré.
moved-mine-draw-offer = Votre proposition de nulle a été transmise.
moved-theirs = Partie { $game } : les { $color ->
        [white] Blancs
       *[black] Noirs
    } ont joué { $move } ({ $san }).
moved-theirs-draw-offer = Avec ce coup, votre adversaire propose nulle : répondez « j'accepte nulle », ou envoyez simplement votre coup pour refuser.
ended-resigned = Les { $color ->
        [white] Blancs
       *[black] Noirs
    } ont abandonné.
ended-draw-accepted = Les { $color ->
        [white] Blancs
       *[black] Noirs
    } ont accepté la nulle.
ended-draw-claimed = Les { $color ->
        [white] Blancs
       *[black] Noirs
    } ont réclamé la nulle ({ $termination }) ; la réclamation est fondée.
draw-offer-sent = Partie { $game } : votre proposition de nulle a été transmise à votre adversaire.
draw-offered =
    Partie { $game } : les { $color ->
        [white] Blancs
       *[black] Noirs
    } proposent nulle.
    Répondez « j'accepte nulle » ou « je refuse nulle » ; jouer un coup revient aussi à refuser.
draw-declined-mine = Partie { $game } : vous avez refusé la proposition de nulle.
draw-declined-theirs = Partie { $game } : les { $color ->
        [white] Blancs
       *[black] Noirs
    } ont refusé votre proposition de nulle. La partie continue.
status-intro = Partie { $game } : la position actuelle.
rejected-intro = Partie { $game } : votre message n'a pas été joué.
rejected-reason = Motif : { $reason }.
rejected-what-to-do = Que faire : { $todo }
game-over-body = La partie { $game } est terminée : { $result } ({ $termination }).
game-over-thanks = Merci pour la partie.

## Que faire après un refus

todo-game-over = rien : la partie est terminée. Demandez une nouvelle partie à l'organisateur.
todo-wait = attendez le coup de votre adversaire ; il vous parviendra par e-mail.
todo-compare-records = comparez votre feuille de partie avec celle ci-dessous, puis envoyez votre coup sous la forme « { $number } <coup> ».
todo-compare-records-later = comparez votre feuille de partie avec celle ci-dessous, puis envoyez votre coup sous la forme « { $number } <coup> » quand ce sera votre tour.
todo-send-one = envoyez uniquement votre coup pour { $number }.
todo-send-if-yours = envoyez « { $number } { $move } » si c'est bien votre coup.
todo-choose-promotion = envoyez l'un de ces coups : { $options } (5e chiffre : 1 dame, 2 tour, 3 fou, 4 cavalier).
todo-send-legal = envoyez un coup légal pour { $number } ; l'échiquier figure ci-dessous.
todo-offer-draw-yourself = pour proposer nulle vous-même, écrivez « je propose nulle » (avec votre coup si vous le souhaitez).
todo-play-on = continuez la partie : envoyez votre coup.

## Pourquoi une commande n'a pas été exécutée

reject-game-over = la partie est terminée ({ $result }, { $termination }) : plus aucun coup n'est accepté
reject-not-your-turn = le trait est aux { $color ->
        [white] Blancs
       *[black] Noirs
    } : attendez le coup de votre adversaire
reject-wrong-number = vous avez écrit le coup { $given }, mais la partie en est au coup { $expected } (trait aux { $color ->
        [white] Blancs
       *[black] Noirs
    }) : les deux feuilles de partie ne concordent plus
reject-echo-mismatch = au coup { $number }, vous avez écrit { $given }, mais la feuille de partie indique { $recorded } : les deux feuilles ne concordent plus
reject-several-new-moves = votre message contient { $count ->
        [one] { $count } nouveau coup
       *[other] { $count } nouveaux coups
    } ({ $moves }) : envoyez un seul coup à la fois
reject-already-recorded = { $number } { $move } figure déjà sur la feuille de partie : envoyez votre coup suivant
reject-illegal = { $number } { $move } n'est pas possible : { $why }
reject-no-draw-offer = votre adversaire n'a proposé aucune nulle à laquelle répondre
reject-own-draw-offer = la proposition de nulle vient de vous : seul votre adversaire peut l'accepter
reject-claim-refused = la nulle ne peut pas être réclamée : la position s'est produite { $repetitions ->
        [one] une fois
       *[other] { $repetitions } fois
    } (il en faut 3) et { $moves ->
        [one] { $moves } coup a été joué
       *[other] { $moves } coups ont été joués
    } sans prise ni mouvement de pion (il en faut 50)

## Pourquoi un coup n'est pas légal

illegal-no-piece = il n'y a aucune pièce en { $square }
illegal-opponents-piece = la pièce en { $square } appartient aux { $color ->
        [white] Noirs, et le trait est aux Blancs
       *[black] Blancs, et le trait est aux Noirs
    }
illegal-cannot-reach-no-moves = { $piece ->
        [king] le roi
        [queen] la dame
        [rook] la tour
        [bishop] le fou
        [knight] le cavalier
       *[pawn] le pion
    } en { $from } ne peut pas atteindre { $to } ; { $piece ->
        [queen] elle
        [rook] elle
       *[other] il
    } n'a aucun coup légal pour l'instant
illegal-cannot-reach-moves = { $piece ->
        [king] le roi
        [queen] la dame
        [rook] la tour
        [bishop] le fou
        [knight] le cavalier
       *[pawn] le pion
    } en { $from } ne peut pas atteindre { $to } ; ses coups légaux sont { $moves }
illegal-leaves-king-in-check = après { $move }, votre roi en { $king } serait en échec
illegal-castling = le roque { $move } n'est pas possible pour l'instant : { $reason }
castling-right-lost = le roi ou cette tour a déjà bougé
castling-piece-in-the-way = une pièce bloque le passage en { $square }
castling-in-check = le roi est en échec
castling-square-attacked = le roi passerait par la case { $square } ou s'y arrêterait, alors qu'elle est attaquée
illegal-promotion-digit-missing = un pion qui atteint la dernière rangée a besoin d'un 5e chiffre (1 dame, 2 tour, 3 fou, 4 cavalier) : { $options }
illegal-promotion-digit-not-allowed = { $move } n'est pas une promotion et ne prend donc pas de 5e chiffre : écrivez { $without }
illegal-old-promotion-form = { $given } est l'ancienne forme de promotion à 4 chiffres ; la forme standard est { $standard } : envoyez { $standard } si c'est bien votre coup

## Pourquoi un texte n'est pas un coup

parse-wrong-length = `{ $text }` compte { $count ->
        [one] { $count } chiffre
       *[other] { $count } chiffres
    } : un coup s'écrit avec 4 chiffres (5 pour une promotion)
parse-not-a-digit = `{ $text }` contient `{ $char }`, qui n'est pas un chiffre : écrivez les coups uniquement avec des chiffres, par exemple 5254
parse-not-a-square = { $square } n'est pas une case : colonnes et rangées vont de 1 à 8
parse-same-square = `{ $text }` part de { $square } et y arrive : un coup va d'une case à une autre
parse-bad-promotion-digit = `{ $text }` se termine par { $digit } : le chiffre de promotion est 1 (dame), 2 (tour), 3 (fou) ou 4 (cavalier)

## Un message sans commande claire

unclear-intro = Partie { $game } : votre message n'a pas pu être lu comme une commande claire, rien n'a donc été joué.
unclear-found = Ce qui a été trouvé : { $what }.
unclear-please =
    Merci de répondre uniquement avec votre coup en notation numérique, par exemple « { $number } 5254 »,
    ou avec l'une de ces commandes : j'abandonne, je propose nulle, j'accepte nulle, je refuse nulle, je réclame nulle, échiquier.
unclear-nothing-found = aucun coup ni aucune commande n'a été trouvé dans votre message ; écrivez le coup en notation numérique sur une ligne à part, par exemple 13. 5254
unclear-several-moves = votre message contient des coups différents ({ $moves }) ; envoyez un seul coup (avec les coups précédents si vous le souhaitez, par exemple 12... 3746 13. 5254)
unclear-not-a-move = `{ $text }` ressemble à un coup mais n'en est pas un : { $error }
unclear-algebraic = `{ $text }` est en notation algébrique ; cette partie se joue en notation numérique (par exemple 5254 pour e2-e4), le coup n'a donc pas été converti
unclear-number-in-prose = `{ $text }` se trouve au milieu d'une phrase et n'est peut-être pas votre coup ; écrivez le coup sur une ligne à part, par exemple 13. 5254
unclear-vague-draw = `{ $text }` : merci d'écrire « je propose nulle », « j'accepte nulle » ou « je refuse nulle »
unclear-uncertain = `{ $text }` mentionne une commande irrévocable, mais pas comme une déclaration claire de votre part (elle figure dans une question, une condition, une citation, avec une négation, à côté de propos sur quelqu'un d'autre, ou dans l'objet) ; si c'est bien votre intention, écrivez-la seule sur une ligne du message, par exemple « j'abandonne »
unclear-mixed-commands = votre message contient plusieurs commandes ({ $commands }) ; envoyez-les une par une
unclear-too-many-commands = votre message contient { $count } coups et commandes, soit plus que les { $limit } autorisés par message ; envoyez votre coup seul
unclear-malformed = le message n'a pas pu être lu comme un e-mail

## Avis hors du jeu

too-large =
    Votre message de { $size } octets dépasse la taille que lit cet arbitre ({ $limit } octets) ; il n'a donc pas été lu.
    Merci d'envoyer un court message en texte brut contenant seulement votre coup, sans pièce jointe.
help =
    Ici { $name } <{ $address }>, un arbitre d'échecs par correspondance.

    Les coups ne sont acceptés qu'à votre propre adresse de partie, de la forme
    { $local }+<partie>-<clé>@{ $domain }, qui vous a été envoyée à la création de votre partie.
    Il suffit de répondre à n'importe quel message de votre partie.

    Les coups s'écrivent en notation numérique ICCF : case de départ puis case d'arrivée,
    chaque case donnée par le chiffre de la colonne puis celui de la rangée (e2-e4 s'écrit 5254 ;
    le roque est le coup du roi, 5171 ; une promotion ajoute 1 dame, 2 tour, 3 fou, 4 cavalier).

    Commandes : un coup, j'abandonne, je propose nulle, j'accepte nulle, je refuse nulle, je réclame nulle, échiquier.
auth-failed =
    Un message pour la partie { $game } est arrivé avec votre adresse ({ $from }) comme expéditeur, mais le serveur
    de messagerie du club n'a pas pu confirmer qu'il venait de vous ({ $found }). Il n'a pas été joué.
    Si vous l'avez envoyé, vérifiez que votre fournisseur signe vos messages (DKIM) et publie une politique DMARC ;
    sinon, quelqu'un a tenté de jouer à votre place.
auth-found-summary = ses vérifications indiquent : { $summary }
auth-found-nothing = il n'a trouvé dans le message aucune preuve de l'expéditeur
stranger =
    Un message est arrivé à votre adresse pour la partie { $game } depuis { $from }, qui n'est pas votre adresse enregistrée ({ $registered }).
    Il n'a pas été joué. Seuls comptent les coups envoyés depuis votre adresse enregistrée.
    Si ce n'était pas vous, il n'y a rien à faire ; si vous pensez que quelqu'un d'autre connaît votre adresse de partie,
    demandez-en une nouvelle à l'organisateur (wildt game rekey).
wrong-address =
    Votre message a été envoyé à une adresse qui n'est pas la vôtre pour la partie { $game } ; il n'a donc pas été joué.
    Votre adresse pour cette partie est :

        { $address }

    Répondez à ce message pour l'atteindre.

# conditional
cond-subject = coups conditionnels
cond-subject-prepared = { $move } joué d'après vos coups conditionnels
cond-intro = Partie { $game } : vos coups conditionnels.
cond-stored = Vos coups conditionnels sont enregistrés :
cond-cancelled = Vos coups conditionnels sont annulés ; aucun n'est plus enregistré.
cond-rejected =
    Vos coups conditionnels n'ont pas été acceptés : { $reason }.
    Vos coups conditionnels précédents, s'il y en a, restent inchangés.
cond-move-counts = Le coup de votre message est joué quand même.
cond-not-considered = Vos coups conditionnels n'ont pas été examinés, car le reste de votre message n'était pas un ordre clair ; renvoyez-les avec votre coup.
cond-prepared-played = Partie { $game } : votre adversaire a joué { $opponent }, et votre réponse préparée { $answer } a été jouée aussitôt.
cond-prepared-accepted = Partie { $game } : votre adversaire a joué { $opponent } en proposant nulle ; vos coups conditionnels l'ont acceptée.
cond-remaining = Ce qui reste de vos coups conditionnels :
cond-none-remain = Il ne reste aucun coup conditionnel : vous répondrez au prochain coup vous-même.
cond-relay-prepared = Votre adversaire avait préparé ce coup à l'avance ; il a été joué dès l'arrivée de votre coup.
cond-off-tree = Vos coups conditionnels ne prévoyaient pas { $opponent } ; ils sont donc effacés : répondez vous-même.
cond-no-offer = Votre ligne conditionnelle se terminait par l'acceptation de la nulle, mais { $opponent } est venu sans proposition de nulle : rien n'a été joué et vos coups conditionnels sont épuisés. Répondez vous-même.
cond-stale = Vos coups conditionnels ne correspondent plus à la partie ; ils sont donc effacés : répondez vous-même.

# clock
termination-time-forfeit = dépassement du temps
subject-clock-reminder = rappel : à vous de jouer
subject-clock-low-time = votre temps s'épuise
clock-reminder =
    Partie { $game } : c'est à vous de jouer, et { $days } jours ont passé depuis l'arrivée du coup de votre adversaire.
    Envoyez votre coup, s'il vous plaît ; votre pendule continue de tourner.
clock-low-time =
    Partie { $game } : il ne reste que { $days } jours à votre pendule. S'il s'écoule, la partie est perdue au temps.
clock-days-left = { $color ->
        [white] Blancs
       *[black] Noirs
    }: { $days } jours restants pour les coups { $from }–{ $to }
clock-days-left-open = { $color ->
        [white] Blancs
       *[black] Noirs
    }: { $days } jours restants
termination-adjudication = décision de l'arbitre
subject-clock-leave = congé
subject-clock-ruling = décision sur la pendule
clock-leave-granted =
    Partie { $game } : { $color ->
            [white] les Blancs
           *[black] les Noirs
        } sont en congé du { $from } au { $to } (deux jours compris) ; leur pendule ne tourne pas pendant ce temps.
clock-days-given =
    Partie { $game } : par décision de l'organisateur, la pendule de { $color ->
            [white] les Blancs
           *[black] les Noirs
        } reçoit { $days } jours.
clock-adjudicated =
    La partie { $game } a été décidée par l'organisateur : { $result }.
    Motif : { $reason }
clock-leave-refused = Partie { $game } : votre congé n'a pas été enregistré : { $why }.
clock-leave-why-ends-before-start = il finit ({ $to }) avant de commencer ({ $from })
clock-leave-why-in-past = il commence ({ $from }) avant aujourd'hui ({ $today })
clock-leave-why-overlaps = il chevauche votre congé du { $from } au { $to }
clock-leave-why-exceeds = il prend { $asked } jours de { $year }, mais il ne reste que { $remaining } de vos { $allowance } jours par an
clock-leave-why-overlaps-organiser = il chevauche le congé du { $from } au { $to }
clock-leave-why-exceeds-organiser = il prend { $asked } jours de { $year }, mais il ne reste que { $remaining } des { $allowance } jours par an
clock-leave-why-unclear = ses dates sont illisibles ; écrivez par exemple : congé 20.12.2026 au 03.01.2027
clock-leave-cancelled = Partie { $game } : le congé de { $color ->
        [white] les Blancs
       *[black] les Noirs
    } à partir du { $from } est annulé ; la pendule tourne de nouveau.
clock-leave-nothing-to-cancel = Partie { $game } : il n'y a aucun congé en cours ou à venir à annuler.

# event
termination-forfeit = forfait
termination-annulled = annulée par l'organisateur
subject-event-welcome = { $event } : vos parties
event-welcome-intro = Bienvenue dans { $event }, un tournoi toutes rondes (joueurs : { $players } ; vos parties : { $games }). Toutes vos parties commencent maintenant :
event-welcome-game = Partie { $game } : vous jouez { $color ->
        [white] les Blancs
       *[black] les Noirs
    } contre { $opponent } - envoyez vos coups à { $address }
event-welcome-outro = Chaque partie a aussi son propre mail de bienvenue : répondez à ce mail pour envoyer vos coups dans cette partie.
subject-event-withdrawal = { $event } : un joueur s'est retiré
event-withdrawal-forfeit = { $opponent } s'est retiré de { $event }. Votre partie { $game } contre ce joueur est comptée comme gagnée par forfait ; elle est terminée.
event-withdrawal-annulled = { $opponent } s'est retiré de { $event } avant d'avoir terminé la moitié de ses parties ; ses parties en cours sont annulées. Votre partie { $game } contre ce joueur ne compte pour personne ; elle est terminée.
event-standing = Classement dans { $event } : place { $rank } sur { $players }, points : { $points }, parties terminées : { $played }.

## A greeting when the player's name is known

greeting = Bonjour { $name },

## The player chose a language

subject-language-set = langue : français
language-set = Désormais, wildt vous écrit en français. Pour choisir une autre langue, répondez avec une ligne comme « langue : English ».

## Xfcc: a note sent with a move from a chess program, and the password mail

xfcc-note = Message de votre adversaire : { $note }
subject-xfcc-password = votre mot de passe Xfcc
xfcc-password =
    Votre nouveau mot de passe pour jouer depuis un logiciel d'échecs (Xfcc) : { $password }
    Nom d'utilisateur : { $user }
    L'ancien mot de passe ne fonctionne plus. Pour en obtenir un autre, écrivez "xfcc password" à l'une de vos adresses de partie.
