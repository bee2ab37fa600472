// The rules of Spit and Speed (/rules/spit), in English and German, as a player needs them: the shared
// rules page (rules.js) draws them. Sources: the German rule texts (their terms are used here) and how
// the engine reads them (docs/spit.md).

// Per language: the rules page's tab, a title, a lead and sections [id, heading, html] (a variant's <dt>
// is its preset's id: the page words it); and the terms in English and German.
export const RULES = {
  tab: { en: "Spit and Speed", de: "Spit und Speed" },
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
};
