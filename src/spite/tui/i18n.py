"""The words of the terminal app in English and German.

Its screen's own words (prompts, keys) are here; everything else, and what the engine, the bots
and the server say (refusals, hint reasons, game-over reasons), comes from the message catalogue
it shares with the browser page (:mod:`spite.catalogue`): the same codes, the same words.

The German terms are those of the German rule texts (docs/rules.md): Vorratsstapel (stock),
Mittelstapel (build piles), Ablagestapel (discard piles), Blatt (hand), Nachziehstapel (draw pile).
Move notation and card tokens (``H7-B2``, ``QS``) are the records' and stay the same in both
languages; so do the keys, which follow the notation (S stock, D discard, B build).

>>> tr("en", "stock"), tr("de", "stock")
('Stock', 'Vorratsstapel')
>>> tr("de", "wins", name="Spieler 1")
'Spieler 1 gewinnt'
>>> tr("de", "reason_blocked")
'niemand konnte spielen'
>>> tr("fr", "stock")
Traceback (most recent call last):
...
ValueError: unknown language 'fr' (en or de)
"""

from __future__ import annotations

from typing import Final

from spite import catalogue
from spite.catalogue import SeatName
from spite.errors import Phrase
from spite.tui.render import on_screen

__all__ = ["LANGUAGES", "has_text", "say", "say_all", "tr"]

LANGUAGES: Final = ("en", "de")

_TEXTS: Final[dict[str, tuple[str, str]]] = {
    # the table
    "malice": ("Spite and Malice", "Spite and Malice"),
    "spit": ("Spit", "Spit"),
    "stock": ("Stock", "Vorratsstapel"),
    "stock_short": ("Stock", "Vorrat"),
    "build": ("Build piles", "Mittelstapel"),
    "build_short": ("Build", "Mitte"),
    "discard": ("Discard piles", "Ablagestapel"),
    "discard_short": ("Discards", "Ablage"),
    "hand": ("Hand", "Blatt"),
    "draw": ("Draw pile", "Nachziehstapel"),
    "draw_short": ("Draw", "Nachz."),
    "set_aside": ("Set aside", "Beiseite"),
    "cards": ("cards", "Karten"),
    "turn": ("Turn", "Zug"),
    "seat": ("Seat {n}", "Platz {n}"),
    "you": ("you", "du"),
    "team": ("team {n}", "Team {n}"),
    "human": ("human", "Mensch"),
    "to_move": ("{name} to move", "{name} ist am Zug"),
    "thinking": ("{name} is thinking …", "{name} überlegt …"),
    "log": ("Log", "Protokoll"),
    "score": ("Match {scores} (to {target})", "Partie {scores} (bis {target})"),
    "empty": ("empty", "leer"),
    "too_small": (
        "Enlarge the terminal to {w}×{h} to see the table (it is {now} now).",
        "Bitte das Terminal auf {w}×{h} vergrößern, um den Tisch zu sehen (jetzt {now}).",
    ),
    # prompts
    "pick_source": ("Pick a card: {sources} · ? hint{undo}", "Karte wählen: {sources} · ? Tipp{undo}"),
    "src_stock": ("S stock", "S Vorrat"),
    "src_hand": ("{keys} hand", "{keys} Blatt"),
    "src_discard": ("{keys} discard", "{keys} Ablage"),
    "undo_hint": (" · U undo", " · U zurück"),
    "pick_target": ("{card} → where? {targets} · Esc cancel", "{card} → wohin? {targets} · Esc abbrechen"),
    "to_build": ("{keys} build", "{keys} Mitte"),
    "to_discard": ("{keys} discard (ends the turn)", "{keys} Ablage (beendet den Zug)"),
    "no_target": ("{card} cannot be played now", "{card} kann jetzt nicht gespielt werden"),
    "pass_hint": ("No card may be discarded: P passes", "Keine Karte darf abgelegt werden: P passt"),
    "waiting_digit": ("{what}: which one? (a digit)", "{what}: welcher? (eine Ziffer)"),
    "hint": ("Hint: {move} — {why}", "Tipp: {move} — {why}"),
    "no_undo": (
        "Nothing to undo: only build plays of this turn, until a hidden card is revealed",
        "Nichts zurückzunehmen: nur Ausspiele dieses Zuges, bis eine verdeckte Karte aufgedeckt wurde",
    ),
    "undone": ("Took back {move}", "{move} zurückgenommen"),
    "not_your_turn": ("Wait: it is not your turn", "Warte: du bist nicht am Zug"),
    "illegal": ("Not allowed: {reason}", "Nicht erlaubt: {reason}"),
    # hot seat
    "pass_title": ("Pass the keyboard", "Tastatur weitergeben"),
    "pass_body": (
        "{name}, it is your turn.\nThe others look away, please.\n\nPress Enter to show your hand.",
        "{name}, du bist am Zug.\nDie anderen schauen bitte weg.\n\nEnter zeigt dein Blatt.",
    ),
    # the end
    "game_over": ("Game over", "Spielende"),
    "wins": ("{name} wins", "{name} gewinnt"),
    "draw_result": ("A draw ({reason})", "Unentschieden ({reason})"),
    # the reasons of a game's end (reason_…) are the shared catalogue's
    "points": ("{points} points", "{points} Punkte"),
    "turns_played": ("{turns} turns, {moves} moves", "{turns} Züge, {moves} Spielzüge"),
    "stock_left": ("{name}: {n} stock cards left", "{name}: noch {n} Karten im Vorratsstapel"),
    "stock_left_one": ("{name}: 1 stock card left", "{name}: noch 1 Karte im Vorratsstapel"),
    "match_over": ("{name} wins the match", "{name} gewinnt die Partie"),
    "end_keys": ("N next game · Q quit", "N nächstes Spiel · Q beenden"),
    "end_keys_final": ("Q quit", "Q beenden"),
    "confirm_quit": (
        "Quit this game? Y yes · any other key: no, play on",
        "Dieses Spiel beenden? J ja · jede andere Taste: nein, weiterspielen",
    ),
    # footer
    "key_hint": ("Hint", "Tipp"),
    "key_undo": ("Undo", "Zurück"),
    "key_pass_turn": ("Pass", "Passen"),
    "key_quit": ("Quit", "Beenden"),
    "key_quit_game": ("Quit", "Beenden"),
    "key_cancel": ("Cancel", "Abbrechen"),
    "key_go": ("Show my hand", "Blatt zeigen"),
    "key_next": ("Next game", "Nächstes Spiel"),
    "key_leave": ("Quit", "Beenden"),
    "key_close": ("Look at the table", "Tisch ansehen"),
    "key_spit": ("Spit", "Spit"),
    "key_slap": ("Slap", "Abschlagen"),
    "key_start": ("Start", "Los"),
    # start screen
    "start_title": ("spite — play in the terminal", "spite — Spielen im Terminal"),
    "game": ("Game", "Spiel"),
    "preset": ("Preset", "Variante"),
    "seats": ("Seats", "Plätze"),
    "language": ("Language", "Sprache"),
    "start": ("Start", "Los"),
    # spit
    "spit_keys": (
        "1-5 pile, then Q/W{e} center or another pile's slot · Space spit · S slap · Esc cancel",
        "1-5 Stapel, dann Q/W{e} Mitte oder freier Platz · Leertaste Spit · S abschlagen · Esc abbrechen",
    ),
    "spit_pile": ("Spit pile", "Spit-Stapel"),
    "tableau": ("Tableau", "Tableau"),
    "centers": ("Centers", "Mitte"),
    "round": ("Round {n}", "Runde {n}"),
    "stuck": ("Stuck: press Space to spit", "Nichts geht mehr: Leertaste für Spit"),
    "slap_now": (
        "You won the round: S slaps the smaller pile (or Q/W)",
        "Runde gewonnen: S schlägt den kleineren Stapel ab (oder Q/W)",
    ),
    "slap_wait": ("{name} won the round", "{name} hat die Runde gewonnen"),
    "rounds_won": ("rounds won {n}", "Runden {n}"),
    "spit_over": ("Game over: {text} · Q quit", "Spielende: {text} · Q beenden"),
    "selected": ("Pile {n} selected", "Stapel {n} gewählt"),
    "wait": ("wait …", "warte …"),
}


def tr(lang: str, key: str, **values: object) -> str:
    """The text ``key`` in ``lang`` with ``values`` filled in."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (en or de)")
    if key not in _TEXTS:
        return catalogue.render(lang, key, values)  # type: ignore[arg-type]
    text = _TEXTS[key][LANGUAGES.index(lang)]
    return text.format(**values) if values else text


def has_text(key: str) -> bool:
    """True when there is a text ``key`` (the screen's own, or the shared catalogue's)."""
    return key in _TEXTS or catalogue.has(key)


def say(lang: str, phrase: Phrase | None, english: str, seat_name: SeatName) -> str:
    """What the engine, a bot or the server said, as the screen words it: in English its own line
    (with the screen's seat names and suit symbols, :func:`~spite.tui.render.on_screen`), in German
    its catalogue phrase (seats named as the screen names them); the English line when there is no
    phrase or the catalogue does not know it."""
    if lang == "en" or phrase is None or not catalogue.has(phrase.key):
        return on_screen(english, seat_name)
    return catalogue.word(lang, phrase, english, seat_name)


def say_all(lang: str, phrases: tuple[Phrase, ...] | list[Phrase], english: str, seat_name: SeatName) -> str:
    """A hint's why (several phrases) as :func:`say` words one."""
    if lang == "en" or not phrases or not all(catalogue.has(p.key) for p in phrases):
        return on_screen(english, seat_name)
    return catalogue.words(lang, phrases, english, seat_name)
