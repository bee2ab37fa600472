// The rules pages (/rules/spite-malice, /rules/spit) in English and German, as a player needs them.
// Sources: the German rule texts (their terms are used here) and how the engine reads them
// (docs/rules.md, docs/spit.md).
// The texts live here, not in i18n.js; the page's language buttons switch them.

import { esc } from "./html.js";
import { main, setRerender, setStatus } from "./shell.js";
import { getLang, presetName } from "./i18n.js";

export const GAMES = ["spite-malice", "spit"];

const NAV = {
  en: { "spite-malice": "Spite and Malice", spit: "Spit and Speed", contents: "Contents", back: "Back to the lobby",
    stats: "Statistics", term: "Term", seed: "German (the rule texts)", unknown: "There are no rules for “{game}”." },
  de: { "spite-malice": "Spite and Malice", spit: "Spit und Speed", contents: "Inhalt", back: "Zurück zur Lobby",
    stats: "Statistik", term: "Begriff", seed: "Deutsch (die Regeltexte)", unknown: "Für „{game}“ gibt es keine Regeln." },
};

// Each game: per language a title, a lead and sections [id, heading, html].
const RULES = {
  "spite-malice": {
    en: {
      title: "Spite and Malice — the rules",
      lead: `A competitive patience for two players (with variants for three or four, and for two against two).
        Each player tries to be the first to play their whole <b>stock</b> onto shared <b>build piles</b>, built up
        from Ace to Queen. Kings and jokers are wild; your own <b>discard piles</b> are where the tactics happen.
        Skip-Bo is its commercial descendant.`,
      sections: [
        ["cards", "The cards", `<ul>
          <li>Two standard decks of 52 cards plus 4 jokers: <b>108 cards</b>.</li>
          <li>Order on the build piles: A 2 3 4 5 6 7 8 9 10 J Q. A pile is complete at the <b>Queen</b>.</li>
          <li><b>Kings and jokers are wild</b>: on a build pile they stand for whatever value is needed.</li>
          <li>Aces are never wild. Suits never matter — only values and their order.</li></ul>`],
        ["setup", "Setup", `<ol>
          <li>Shuffle all 108 cards together.</li>
          <li>Deal each player a <b>stock</b> (<i>Vorratsstapel</i>) of 26 cards face down; turn its top card face up.</li>
          <li>Deal each player 5 cards: the <b>hand</b> (<i>Blatt</i>).</li>
          <li>The rest is the shared <b>draw pile</b> (<i>Nachziehstapel</i>), face down in the middle.</li>
          <li>The middle has room for up to four <b>build piles</b> (<i>Mittelstapel</i>), and every player for up to four
            <b>discard piles</b> (<i>Ablagestapel</i>); all start empty.</li>
          <li>A cut decides who begins (on this server: chance).</li></ol>`],
        ["turn", "A turn", `<ol>
          <li><b>Draw</b> from the draw pile until your hand holds 5 cards.</li>
          <li><b>Play</b> as many cards as you like onto the build piles, in any order, from
            <ul><li>your hand,</li><li>the top card of your stock,</li><li>the top card of any of your discard piles.</li></ul>
            When the top card of your stock has been played, the next one is turned face up.</li>
          <li>If your hand becomes empty during the turn, you draw 5 new cards at once and play on.</li>
          <li><b>Discard</b>: you end your turn by putting one card from your hand face up onto one of your own discard
            piles. Nothing obliges you to play a card before that.</li></ol>
          <p class="muted">On this page: click a card (or drag it), then one of the highlighted piles. Keys: <kbd>S</kbd> stock,
          <kbd>1</kbd>–<kbd>5</kbd> a hand card, <kbd>D</kbd>+n a discard pile, then <kbd>B</kbd>+n or <kbd>D</kbd>+n;
          <kbd>P</kbd> pass, <kbd>Esc</kbd> cancel.</p>`],
        ["builds", "Build piles", `<ul>
          <li>A card goes onto a build pile when it is exactly <b>one value higher</b> than the pile's value.</li>
          <li>An empty place takes only an <b>Ace</b> (or a wild as an Ace), which starts a new pile. There are never more
            than four build piles.</li>
          <li>When a pile reaches the <b>Queen</b> (12) — or a wild standing for it — it is complete: the whole pile is
            shuffled back into the draw pile, and its place is free for a new Ace.</li>
          <li>The build piles belong to everybody: what you build also helps — or blocks — your opponent.</li></ul>`],
        ["wilds", "Wild cards: kings and jokers", `<ul>
          <li>A King or a joker may be played onto any build pile as any value, an Ace included — from your hand, your
            stock or a discard pile, like any other card.</li>
          <li>A wild has no value of its own: it takes the value needed, and the next card must be one higher than that
            (a King on a 6 stands for 7; an 8 comes next). The table shows it as <q>K as 7</q>.</li>
          <li>When a pile is complete, its wilds go back into the draw pile with the rest.</li>
          <li>Don't waste wilds: a wild late in a pile (for a Jack or Queen) is worth more than one for a 2.</li></ul>`],
        ["discards", "Discard piles", `<ul>
          <li>Up to four per player. Any card goes onto any of them in any order; you may start a new one while you have
            fewer than four.</li>
          <li>Only the <b>top card</b> of a discard pile may be played.</li>
          <li><b>Aces may never be discarded</b>: they can only go onto build piles.</li>
          <li>If you cannot discard (only Aces in your hand, or an empty hand that the draw pile cannot refill), you
            <b>pass</b> instead.</li>
          <li>Tip: keep them sorted — low cards, middle cards, high cards, wilds or awkward cards — so that you don't bury the
            card you will need in two turns.</li></ul>`],
        ["draw", "When the draw pile runs out", `<ul>
          <li>Completed build piles are shuffled back into the draw pile, so it seldom runs out. If it does, you play on
            with a shorter hand; there is no penalty.</li>
          <li>If every player in a row has to pass without playing a card to a build pile, the game is blocked: a draw.
            After 2000 turns the game is a draw too.</li></ul>`],
        ["win", "Winning", `<p>The first player to play the <b>last card of their stock</b> wins at once — whatever is still in their
          hand or on their discard piles.</p>`],
        ["presets", "Presets (variants)", `<p>Pick one in the lobby; the stock size can be changed for any of them.</p>
          <dl class="presets">
          <dt>classic</dt><dd>The rules above: 108 cards, stocks of 26, four build piles.</dd>
          <dt>cat-and-mouse</dt><dd>An older name of Spite and Malice; the same game.</dd>
          <dt>match</dt><dd>The shorter text's game: stocks of 20, three build piles, no jokers (only kings are wild). Any
            card may go onto a discard pile, aces too. An empty draw pile ends the game as a draw. The winner scores one point per card left in the opponent's stock;
            50 points win a match (the server plays one game at a time).</dd>
          <dt>skip-bo</dt><dd>The Skip-Bo deck: twelve each of 1 to 12 plus 18 wilds (162 cards), stocks of 30, piles built
            from 1 to 12; 1s may be discarded.</dd>
          <dt>short</dt><dd>Stocks of 13 cards (15 is the other usual size): much quicker games.</dd>
          <dt>kings-only</dt><dd>No jokers: only kings are wild (8 wilds instead of 12).</dd>
          <dt>no-blocking</dt><dd>A house rule against spite: you may not end your turn (discard or pass) while you could still
            play a card that is not wild onto a build pile. Playing wilds stays optional.</dd>
          <dt>open-stock</dt><dd>The top three cards of every stock lie face up; only the top one may be played.</dd>
          <dt>party</dt><dd>Three players, each with their own stock; three decks and six jokers; turns go clockwise.</dd>
          <dt>partners</dt><dd>Four players, two against two (seats 1 and 3 against 2 and 4). Each team shares one stock;
            every partner keeps their own hand and discard piles.</dd></dl>`],
      ],
    },
    de: {
      title: "Spite and Malice – die Regeln",
      lead: `Ein Patience-Wettspiel für zwei Spieler (mit Varianten für drei oder vier Spieler und für Partnerschaften
        2 gegen 2). Jeder versucht als Erster, seinen <b>Vorratsstapel</b> auf gemeinsame <b>Mittelstapel</b> abzuspielen,
        die vom Ass bis zur Dame aufgebaut werden. Könige und Joker sind Wildcards; die persönlichen <b>Ablagestapel</b>
        bilden die strategische Ebene. Skip-Bo ist sein kommerzieller Nachkomme.`,
      sections: [
        ["cards", "Kartendeck", `<ul>
          <li>Zwei Standardkartendecks mit je 52 Karten plus 4 Joker: <b>108 Karten</b>.</li>
          <li>Wertreihenfolge auf den Mittelstapeln: Ass 2 3 4 5 6 7 8 9 10 Bube Dame. Ein Stapel ist bei der <b>Dame</b>
            vollständig.</li>
          <li><b>Könige und Joker sind Wildcards</b>: Auf einem Mittelstapel gelten sie als jeder benötigte Wert.</li>
          <li>Asse sind keine Wildcards. Farben spielen keine Rolle – nur Wert und Reihenfolge.</li></ul>`],
        ["setup", "Vorbereitung und Austeilen", `<ol>
          <li>Alle 108 Karten zu einem gemeinsamen Paket mischen.</li>
          <li>Jeder Spieler erhält 26 Karten verdeckt als <b>Vorratsstapel</b>; die oberste Karte wird aufgedeckt.</li>
          <li>Jeder Spieler erhält 5 Karten: sein <b>Blatt</b>.</li>
          <li>Der Rest liegt verdeckt in der Mitte als gemeinsamer <b>Nachziehstapel</b>.</li>
          <li>In der Mitte ist Platz für bis zu vier <b>Mittelstapel</b>, vor jedem Spieler für bis zu vier
            <b>Ablagestapel</b>; alle beginnen leer.</li>
          <li>Wer beginnt, entscheidet das Abheben (auf diesem Server: der Zufall).</li></ol>`],
        ["turn", "Ein Zug", `<ol>
          <li><b>Nachziehen</b>: Vom Nachziehstapel ziehen, bis das Blatt wieder 5 Karten hat.</li>
          <li><b>Ausspielen</b>: Beliebig viele Karten in beliebiger Reihenfolge auf die Mittelstapel spielen, und zwar
            <ul><li>aus dem Blatt,</li><li>die oberste Karte des Vorratsstapels,</li><li>die oberste Karte eines der eigenen
            Ablagestapel.</li></ul>
            Ist die oberste Karte des Vorratsstapels gespielt, wird die nächste aufgedeckt.</li>
          <li>Wird das Blatt während des Zuges leer, zieht man sofort 5 neue Karten und spielt weiter.</li>
          <li><b>Ablegen</b>: Der Zug endet, indem man eine Karte aus dem Blatt offen auf einen der eigenen Ablagestapel
            legt. Vorher muss man nichts ausspielen.</li></ol>
          <p class="muted">Auf dieser Seite: Karte anklicken (oder ziehen), dann einen der markierten Stapel. Tasten: <kbd>S</kbd>
          Vorratsstapel, <kbd>1</kbd>–<kbd>5</kbd> eine Karte des Blatts, <kbd>D</kbd>+n ein Ablagestapel, dann <kbd>B</kbd>+n
          oder <kbd>D</kbd>+n; <kbd>P</kbd> passen, <kbd>Esc</kbd> abbrechen.</p>`],
        ["builds", "Mittelstapel", `<ul>
          <li>Eine Karte passt auf einen Mittelstapel, wenn sie genau <b>einen Wert höher</b> ist als der Wert des Stapels.</li>
          <li>Ein leerer Platz nimmt nur ein <b>Ass</b> (oder eine Wildcard als Ass), das einen neuen Stapel beginnt. Es gibt
            nie mehr als vier Mittelstapel.</li>
          <li>Erreicht ein Stapel die <b>Dame</b> (12) – oder eine Wildcard an ihrer Stelle –, ist er abgeschlossen: Der ganze
            Stapel wird in den Nachziehstapel zurückgemischt, und sein Platz ist frei für ein neues Ass.</li>
          <li>Die Mittelstapel gehören allen: Was man aufbaut, hilft – oder blockiert – auch den Gegner.</li></ul>`],
        ["wilds", "Wildcards: Könige und Joker", `<ul>
          <li>Ein König oder Joker darf auf jeden Mittelstapel als beliebiger Wert gespielt werden, auch als Ass – aus dem
            Blatt, vom Vorratsstapel oder von einem Ablagestapel, wie jede andere Karte.</li>
          <li>Eine Wildcard hat keinen eigenen Wert: Sie füllt den benötigten Wert, und die nächste Karte muss einen Wert
            höher sein (ein König auf einer 6 gilt als 7; danach kommt eine 8). Der Tisch zeigt das als <q>K als 7</q>.</li>
          <li>Wird ein Stapel abgeschlossen, gehen seine Wildcards mit dem Rest in den Nachziehstapel zurück.</li>
          <li>Keine Wildcards verschwenden: Spät im Stapel (für Bube oder Dame) ist eine Wildcard mehr wert als für eine 2.</li></ul>`],
        ["discards", "Ablagestapel", `<ul>
          <li>Bis zu vier pro Spieler. Jede Karte darf auf jeden von ihnen, in beliebiger Reihenfolge; solange man weniger als
            vier hat, darf man einen neuen beginnen.</li>
          <li>Nur die <b>oberste Karte</b> eines Ablagestapels ist spielbar.</li>
          <li><b>Asse dürfen nie abgelegt werden</b>: Sie können nur auf die Mittelstapel gespielt werden.</li>
          <li>Wer nicht ablegen kann (nur Asse im Blatt, oder ein leeres Blatt, das der Nachziehstapel nicht mehr füllt),
            <b>passt</b>.</li>
          <li>Tipp: Geordnet ablegen – niedrige Karten, mittlere, hohe, Wildcards oder schwierige Karten –, damit nicht genau
            der Wert vergraben wird, den man in zwei Zügen braucht.</li></ul>`],
        ["draw", "Wenn der Nachziehstapel leer ist", `<ul>
          <li>Abgeschlossene Mittelstapel werden in den Nachziehstapel zurückgemischt; er wird also selten leer. Wenn doch,
            spielt man mit einem kürzeren Blatt weiter; es gibt keine Strafe.</li>
          <li>Müssen alle Spieler nacheinander passen, ohne eine Karte auf einen Mittelstapel zu spielen, ist das Spiel
            blockiert: unentschieden. Nach 2000 Zügen endet es ebenfalls unentschieden.</li></ul>`],
        ["win", "Gewinnen", `<p>Wer als Erster die <b>letzte Karte seines Vorratsstapels</b> ausspielt, gewinnt sofort – unabhängig
          davon, was noch im Blatt oder auf den Ablagestapeln liegt.</p>`],
        ["presets", "Varianten", `<p>In der Lobby wählbar; die Größe des Vorratsstapels lässt sich bei jeder ändern.</p>
          <dl class="presets">
          <dt>classic</dt><dd>Die Regeln oben: 108 Karten, Vorratsstapel mit 26 Karten, vier Mittelstapel.</dd>
          <dt>cat-and-mouse</dt><dd>Ein älterer Name für Spite and Malice; dasselbe Spiel.</dd>
          <dt>match</dt><dd>Das Spiel der kürzeren Anleitung: Vorratsstapel mit 20 Karten, drei Mittelstapel, keine Joker (nur
            Könige sind Wildcards). Jede Karte darf abgelegt werden, auch ein Ass. Ist der Nachziehstapel leer, endet das Spiel unentschieden. Der Sieger erhält einen Punkt
            je Karte, die noch im Vorratsstapel des Gegners liegt; 50 Punkte gewinnen die Partie (der Server spielt je ein
            Spiel).</dd>
          <dt>skip-bo</dt><dd>Das Skip-Bo-Paket: je zwölf Karten der Werte 1 bis 12 plus 18 Wildcards (162 Karten),
            Vorratsstapel mit 30 Karten, Mittelstapel von 1 bis 12; Einsen dürfen abgelegt werden.</dd>
          <dt>short</dt><dd>Kurzer Vorratsstapel mit 13 Karten (15 ist die andere übliche Größe): deutlich schnellere Partien.</dd>
          <dt>kings-only</dt><dd>Nur Könige als Wildcards: keine Joker (8 statt 12 Wildcards).</dd>
          <dt>no-blocking</dt><dd>Blockier-Verbot (Hausregel): Man darf den Zug nicht beenden (ablegen oder passen), solange man
            noch eine Karte, die keine Wildcard ist, auf einen Mittelstapel spielen könnte. Wildcards bleiben freiwillig.</dd>
          <dt>open-stock</dt><dd>Offener Vorratsstapel: Die drei obersten Karten jedes Vorratsstapels liegen offen; nur die oberste
            ist spielbar.</dd>
          <dt>party</dt><dd>Drei Spieler, jeder mit eigenem Vorratsstapel; drei Decks und sechs Joker; gespielt wird im
            Uhrzeigersinn.</dd>
          <dt>partners</dt><dd>Vier Spieler, 2 gegen 2 (Platz 1 und 3 gegen 2 und 4). Jedes Team hat einen gemeinsamen
            Vorratsstapel; jeder Partner behält sein eigenes Blatt und seine Ablagestapel.</dd></dl>`],
      ],
    },
    terms: [
      ["stock", "Vorratsstapel (Zielstapel)"],
      ["build pile", "Mittelstapel (Aufbaustapel)"],
      ["discard pile", "Ablagestapel"],
      ["hand", "Blatt"],
      ["draw pile", "Nachziehstapel"],
      ["wild card (King, joker)", "Wildcard (König, Joker)"],
      ["completing a pile", "Stapel abschließen"],
      ["spite, blocking", "Spite, Blockieren"],
    ],
  },
  spit: {
    en: {
      title: "Spit and Speed — the rules",
      lead: `A fast game for two with <b>no turns</b>: both players play at the same time onto shared <b>center piles</b>, one
        rank up or down. Whoever empties their side first wins the round; whoever has no cards left at all wins the game.
        Quick hands beat memory and strategy.`,
      sections: [
        ["cards", "The cards", `<ul>
          <li>One deck of 52 cards, no jokers.</li>
          <li>The ranks form a cycle: A 2 3 4 5 6 7 8 9 10 J Q K A — the Ace lies between the King and the 2.</li>
          <li>Suits never matter.</li></ul>`],
        ["setup", "Setup", `<ol>
          <li>Shuffle and split the deck exactly in half: 26 cards each.</li>
          <li>Each player lays out a <b>tableau</b> (<i>Tableau</i>) of five piles in a row with 1, 2, 3, 4 and 5 cards; the top
            card of each pile is face up, the others face down.</li>
          <li>The remaining 11 cards are the player's <b>spit pile</b> (<i>Spit-Stapel</i>), face down.</li>
          <li>Between the players there is room for two <b>center piles</b> (<i>Mittelstapel</i>).</li></ol>`],
        ["spit", "Spit!", `<p>At the start of every round both players turn the top card of their spit pile face up onto a center
          pile at the same time — the first player onto center pile 1, the second onto center pile 2. Play begins at once;
          there are no turns.</p>`],
        ["play", "Playing", `<ul>
          <li>At any time you may take the face-up top card of one of your tableau piles and put it onto a center pile whose
            top card is <b>one rank higher or lower</b>. Aces close the circle: a 2 or a King may go onto an Ace, and an Ace
            onto a 2 or a King.</li>
          <li>The card below the one you played is turned face up at once.</li>
          <li>Both players may reach for the same pile: the card that arrives first counts. The server takes moves in the
            order they arrive; a card that no longer fits is <q>too late</q> and stays where it was.</li></ul>`],
        ["slots", "Empty places", `<p>When one of your tableau piles is empty, you may move the top card of another of your piles
          into the empty place — but only if a card lies beneath it, so that the move turns up a new card.</p>`],
        ["stuck", "Stuck: spit again", `<ul>
          <li>The table is <b>stuck</b> when nobody can put any tableau card onto a center pile (moves into empty places do not
            count).</li>
          <li>Then every player who still has spit cards calls <b>spit</b>; when all have called, each turns their top spit card
            onto their center pile and play goes on. The server calls spit for a player who has not done so after 3 seconds.</li>
          <li>A player without spit cards is skipped: the other one flips alone.</li>
          <li>If the table is stuck and nobody has spit cards left, the round ends once no player can turn up a face-down card
            by a move into an empty place (the card turned up may fit): the player with fewer tableau cards wins it.</li></ul>`],
        ["slap", "The slap: the end of a round", `<ul>
          <li>Whoever has emptied <b>all five tableau piles and their spit pile</b> wins the round and <b>slaps</b> one of the
            center piles: they take that pile, the other player takes the other one.</li>
          <li>Slap the <b>smaller</b> pile: its cards are yours in the next round. If the winner does not slap within 5 seconds,
            the server slaps the smaller pile for them.</li></ul>`],
        ["rounds", "The next round", `<ul>
          <li>Each player gathers their own cards — what is left of their tableau and spit pile, plus the center pile they
            took — shuffles them and lays out a new tableau: piles of 1, 2, 3, … cards while the cards suffice for a whole next
            pile (five piles at most); the rest is the new spit pile.</li>
          <li>With fewer than 15 cards the tableau has fewer piles. Then <q>Spit!</q> again.</li></ul>`],
        ["win", "Winning", `<p>The game ends when a player has <b>no cards left at all</b> (the round winner could take an empty
          center pile): that player wins. There are no points and no draw.</p>`],
        ["presets", "Presets (variants)", `<dl class="presets">
          <dt>spit</dt><dd>The rules above.</dd>
          <dt>spit-jokers</dt><dd>Two jokers are added: a joker may be played onto any card, and any card onto a joker. Shorter,
            wilder games.</dd>
          <dt>three-piles</dt><dd>Three center piles instead of two; the third gets its card from each player in turn.</dd>
          <dt>slowpoke</dt><dd>After every spit nobody may play onto a center pile for 2 seconds (moves into empty places are
            allowed): less speed, more choice.</dd>
          <dt>ace-bridge</dt><dd>Kings and 2s are <b>not</b> joined through the Ace: an Ace may be played onto a King or a 2, but
            nothing onto an Ace. You get stuck more often.</dd>
          <dt>timed</dt><dd>Ten minutes; when the time runs out, the player holding fewer cards wins.</dd>
          <dt>rounds</dt><dd>Winning three rounds in a row wins the game, whatever the number of cards.</dd></dl>`],
        ["speed", "Speed: the difference", `<p>Speed is the close relative, and more forgiving:</p><ul>
          <li>No tableau and no rounds. Each player holds a <b>hand of 5 cards</b>, refilled at once from their own draw pile of
            15 cards; two side piles of 6 cards give the cards for spit.</li>
          <li>You play from your hand onto the two center piles, one rank up or down, as in Spit.</li>
          <li>When the table is stuck, both players spit from the side piles; when the side piles are empty, the center piles
            (all but their top cards) are shuffled into new side piles.</li>
          <li>The first player whose hand and draw pile are empty wins. There is no slap.</li>
          <li>Its preset is <code>speed</code>; of the options it knows only the wrap, slowpoke, the automatic spit and a time limit.</li></ul>`],
      ],
    },
    de: {
      title: "Spit und Speed – die Regeln",
      lead: `Ein rasantes Schnelligkeitsspiel für zwei Spieler <b>ohne Züge</b>: Beide spielen gleichzeitig Karten auf gemeinsame
        <b>Mittelstapel</b>, jeweils einen Wert auf- oder abwärts. Wer zuerst seine Seite leert, gewinnt die Runde; wer
        überhaupt keine Karten mehr hat, gewinnt das Spiel. Hand-Augen-Koordination schlägt Gedächtnis und Strategie.`,
      sections: [
        ["cards", "Kartendeck", `<ul>
          <li>Ein Standard-Kartendeck mit 52 Karten, ohne Joker.</li>
          <li>Die Werte bilden einen Zyklus: A 2 3 4 5 6 7 8 9 10 B D K A – das Ass liegt zwischen König und 2.</li>
          <li>Farben spielen keine Rolle.</li></ul>`],
        ["setup", "Vorbereitung", `<ol>
          <li>Das Deck mischen und genau in zwei Hälften teilen: 26 Karten pro Spieler.</li>
          <li>Jeder Spieler legt sein <b>Tableau</b> aus: fünf Stapel in einer Reihe mit 1, 2, 3, 4 und 5 Karten; die oberste
            Karte jedes Stapels liegt offen, die anderen verdeckt.</li>
          <li>Die übrigen 11 Karten sind der persönliche <b>Spit-Stapel</b>, verdeckt.</li>
          <li>Zwischen den Spielern ist Platz für zwei <b>Mittelstapel</b>.</li></ol>`],
        ["spit", "Spit!", `<p>Zu Beginn jeder Runde decken beide Spieler gleichzeitig die oberste Karte ihres Spit-Stapels auf einen
          Mittelstapel auf – der erste Spieler auf Mittelstapel 1, der zweite auf Mittelstapel 2. Das Spiel beginnt sofort; es
          gibt keine Züge.</p>`],
        ["play", "Eine Karte ausspielen", `<ul>
          <li>Jederzeit darf man die oberste offene Karte eines seiner Tableau-Stapel auf einen Mittelstapel spielen, dessen
            oberste Karte <b>einen Wert höher oder niedriger</b> ist. Asse schließen den Kreis: Eine 2 oder ein König darf auf
            ein Ass, ein Ass auf eine 2 oder einen König.</li>
          <li>Die Karte darunter wird sofort aufgedeckt.</li>
          <li>Beide dürfen gleichzeitig nach demselben Stapel greifen: Wer seine Karte zuerst ablegt, gewinnt den Platz. Der
            Server nimmt die Spielzüge in der Reihenfolge ihres Eintreffens; eine Karte, die nicht mehr passt, kommt <q>zu spät</q>
            und bleibt liegen.</li></ul>`],
        ["slots", "Leere Plätze", `<p>Leert sich ein Tableau-Stapel, bleibt sein Platz frei. Man darf die oberste Karte eines
          anderen eigenen Stapels dorthin verschieben – aber nur, wenn darunter noch eine Karte liegt, die dadurch aufgedeckt wird.</p>`],
        ["stuck", "Feststecken: wieder Spit", `<ul>
          <li>Der Tisch <b>steckt fest</b>, wenn keiner der Spieler eine Tableau-Karte auf einen der Mittelstapel spielen kann
            (Verschieben auf leere Plätze zählt nicht).</li>
          <li>Dann ruft jeder Spieler, der noch Spit-Karten hat, <b>Spit</b>; haben alle gerufen, deckt jeder die oberste Karte
            seines Spit-Stapels auf seinen Mittelstapel auf, und das Spiel geht weiter. Der Server ruft nach 3 Sekunden für
            einen Spieler, der es noch nicht getan hat.</li>
          <li>Wer keine Spit-Karten mehr hat, wird übersprungen: Der andere deckt allein auf.</li>
          <li>Steckt der Tisch fest und hat niemand mehr Spit-Karten, endet die Runde, sobald auch keiner mehr durch Verschieben
            auf einen leeren Platz eine verdeckte Karte aufdecken kann (sie könnte passen): Wer weniger Tableau-Karten hat, gewinnt sie.</li></ul>`],
        ["slap", "Aufschlagen: das Rundenende", `<ul>
          <li>Wer <b>alle fünf Tableau-Stapel und seinen Spit-Stapel</b> geleert hat, gewinnt die Runde und <b>schlägt</b> einen
            der Mittelstapel <b>auf</b>: Er nimmt diesen Stapel, der Gegner den anderen.</li>
          <li>Den <b>kleineren</b> Stapel aufschlagen: Seine Karten sind die eigenen in der nächsten Runde. Schlägt der Sieger
            nicht binnen 5 Sekunden auf, schlägt der Server für ihn den kleineren Stapel auf.</li></ul>`],
        ["rounds", "Die nächste Runde", `<ul>
          <li>Jeder sammelt seine eigenen Karten ein – die Reste von Tableau und Spit-Stapel plus den Mittelstapel, den er
            bekommen hat –, mischt sie und legt ein neues Tableau aus: Stapel mit 1, 2, 3, … Karten, solange die Karten für
            einen ganzen nächsten Stapel reichen (höchstens fünf); der Rest ist der neue Spit-Stapel.</li>
          <li>Mit weniger als 15 Karten hat das Tableau weniger Stapel. Dann heißt es wieder <q>Spit!</q>.</li></ul>`],
        ["win", "Gewinnen", `<p>Das Spiel endet, wenn ein Spieler <b>überhaupt keine Karten mehr</b> hat (der Rundensieger konnte
          einen leeren Mittelstapel nehmen): Dieser Spieler hat gewonnen. Es gibt keine Punkte und kein Unentschieden.</p>`],
        ["presets", "Varianten", `<dl class="presets">
          <dt>spit</dt><dd>Die Regeln oben.</dd>
          <dt>spit-jokers</dt><dd>Spit mit Jokern: Zwei Joker kommen hinzu; ein Joker darf auf jede Karte gespielt werden und jede
            Karte auf einen Joker. Kürzere, chaotischere Spiele.</dd>
          <dt>three-piles</dt><dd>Drei-Stapel-Spit: drei Mittelstapel statt zwei; der dritte bekommt seine Karte abwechselnd von
            jedem Spieler.</dd>
          <dt>slowpoke</dt><dd>Schnecken-Spit: Nach jedem Spit darf 2 Sekunden lang niemand auf einen Mittelstapel spielen
            (Verschieben auf leere Plätze ist erlaubt).</dd>
          <dt>ace-bridge</dt><dd>Nur-Ass-Übergang: Könige und Zweien sind <b>nicht</b> über das Ass verbunden; ein Ass darf auf
            einen König oder eine 2, aber nichts auf ein Ass. Man steckt häufiger fest.</dd>
          <dt>timed</dt><dd>Zeitbasiert: zehn Minuten; wer am Ende weniger Karten hält, gewinnt.</dd>
          <dt>rounds</dt><dd>Rundenanzahl: Wer drei Runden in Folge gewinnt, gewinnt das Spiel, unabhängig von der Kartenzahl.</dd></dl>`],
        ["speed", "Speed: der Unterschied", `<p>Speed ist das eng verwandte Spiel, und verzeihender:</p><ul>
          <li>Kein Tableau und keine Runden. Jeder hält ein <b>Blatt aus 5 Karten</b>, das sofort aus seinem eigenen
            Nachziehstapel mit 15 Karten aufgefüllt wird; zwei seitliche Stapel mit je 6 Karten liefern die Karten für Spit.</li>
          <li>Man spielt aus dem Blatt auf die zwei Mittelstapel, einen Wert auf- oder abwärts, wie bei Spit.</li>
          <li>Steckt der Tisch fest, decken beide von den seitlichen Stapeln auf; sind diese leer, werden die Mittelstapel (bis
            auf ihre obersten Karten) zu neuen seitlichen Stapeln gemischt.</li>
          <li>Wer zuerst Blatt und Nachziehstapel geleert hat, gewinnt. Aufschlagen gibt es nicht.</li>
          <li>Seine Variante heißt „Speed“; von den Optionen kennt es nur den Übergang, die Schnecke, das automatische Spit und ein Zeitlimit.</li></ul>`],
      ],
    },
    terms: [
      ["tableau", "Tableau"],
      ["spit pile", "Spit-Stapel"],
      ["center pile", "Mittelstapel"],
      ["spit! (the flip)", "Spit!"],
      ["slap", "Aufschlagen"],
      ["wrap (A between K and 2)", "Übergang (Wrap)"],
      ["stuck", "Feststecken"],
      ["top face-up card", "Oberste offene Karte"],
      ["hand, draw pile (Speed)", "Blatt, Nachziehstapel"],
    ],
  },
};

function termsHTML(game, nav, lang) {
  const heading = lang === "de" ? "Begriffe" : "Terms";
  const rows = RULES[game].terms.map(([en, de]) => `<tr><td>${esc(en)}</td><td lang="de">${esc(de)}</td></tr>`).join("");
  return `<section id="terms"><h3>${heading}</h3><table class="terms"><thead><tr><th scope="col">${nav.term}</th>
    <th scope="col">${nav.seed}</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** Draw the rules of ``game`` ("spite-malice" or "spit") in the page's language. */
export function renderRules(game) {
  const draw = () => {
    const lang = getLang() === "de" ? "de" : "en";
    const nav = NAV[lang];
    const tabs = GAMES.map((g) => `<a href="/rules/${g}" class="tab${g === game ? " active" : ""}"${g === game ? ' aria-current="page"' : ""}>${nav[g]}</a>`).join("");
    if (!RULES[game]) {
      setStatus("");
      main().innerHTML = `<section class="panel rules"><nav class="tabs">${tabs}</nav>
        <p class="error" id="rules-error">${esc(nav.unknown.replace("{game}", game))}</p><p><a href="/">${nav.back}</a></p></section>`;
      return;
    }
    const text = RULES[game][lang];
    const toc = text.sections.map(([id, h]) => `<li><a href="#${id}">${esc(h)}</a></li>`).join("");
    // each variant by its name in the page's language ("klassisch", not its id "classic")
    const named = (html) => html.replace(/<dt>([a-z-]+)<\/dt>/g, (whole, id) => `<dt data-preset="${id}">${esc(presetName(id))}</dt>`);
    const body = text.sections.map(([id, h, html]) => `<section id="${id}"><h3>${esc(h)}</h3>${named(html)}</section>`).join("");
    setStatus("");
    main().innerHTML = `<article class="panel rules" data-game="${game}" data-lang="${lang}">
      <nav class="tabs" aria-label="${nav.contents}">${tabs}</nav>
      <h2>${esc(text.title)}</h2>
      <p class="lead">${text.lead}</p>
      <nav class="toc" aria-label="${nav.contents}"><ol>${toc}<li><a href="#terms">${lang === "de" ? "Begriffe" : "Terms"}</a></li></ol></nav>
      ${body}
      ${termsHTML(game, nav, lang)}
      <p><a href="/">${nav.back}</a> · <a href="/stats">${nav.stats}</a></p>
    </article>`;
  };
  setRerender(draw);
  draw();
}
