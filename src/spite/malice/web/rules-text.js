// The rules of Spite and Malice and its variants (/rules/spite-malice), in English and German, as a
// player needs them: the shared rules page (rules.js) draws them. Sources: the German rule texts (their
// terms are used here) and how the engine reads them (docs/rules.md).

// Per language: the rules page's tab, a title, a lead and sections [id, heading, html] (a variant's <dt>
// is its preset's id: the page words it); and the terms in English and German.
export const RULES = {
  tab: { en: "Spite and Malice", de: "Spite and Malice" },
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
};
