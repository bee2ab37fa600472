"""Scheduling: duplicate deals really replay the same cards with the seats swapped or rotated."""

from __future__ import annotations

import pytest

from spite.arena import bot_names, check_lineup, schedule
from spite.arena.runner import Setup, bot_rng
from spite.errors import OptionsError
from spite.malice import Options, State
from spite.malice.arena import malice_options


def deal_of(state: State) -> dict[str, object]:
    return state.deal_json()


def test_two_players_each_deal_is_played_twice_with_the_seats_swapped() -> None:
    games = schedule(2, players=2, games=6, seed=11)
    assert len(games) == 6
    opts = Options.from_preset("classic")
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first.deal == second.deal and first.seed == second.seed
        assert (first.rotation, second.rotation) == (0, 1)
        assert first.seats == (0, 1) and second.seats == (1, 0)
        # the same cards in the same seats, the same player to begin
        assert deal_of(State.new(opts, first.seed)) == deal_of(State.new(opts, second.seed))
    seeds = [g.seed for g in games[::2]]
    assert len(set(seeds)) == 3  # and the deals differ from each other


def test_the_schedule_depends_on_the_seed_only() -> None:
    assert schedule(2, players=2, games=10, seed=5) == schedule(2, players=2, games=10, seed=5)
    assert [g.seed for g in schedule(2, players=2, games=10, seed=5)] != [
        g.seed for g in schedule(2, players=2, games=10, seed=6)]


def test_three_players_rotate_through_every_seat() -> None:
    games = schedule(3, players=3, games=6, seed=1)
    assert [g.seats for g in games[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for deal in (0, 1):
        group = [g for g in games if g.deal == deal]
        assert len({g.seed for g in group}) == 1
        for bot in range(3):  # every bot sits in every seat once per deal
            assert sorted(g.seats.index(bot) for g in group) == [0, 1, 2]


def test_four_players_rotate_and_partners_stay_partners() -> None:
    games = schedule(4, players=4, games=4, seed=1)
    assert [g.seats for g in games] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    for g in games:  # teams are seats {0, 2} and {1, 3}: bots 0 and 2 are always partners
        assert {g.seats[0], g.seats[2]} in ({0, 2}, {1, 3})
    for bot in range(4):
        assert sorted(g.seats.index(bot) for g in games) == [0, 1, 2, 3]


def test_two_bots_in_a_partnership_game_are_two_teams_swapped_on_the_same_deal() -> None:
    games = schedule(2, players=4, games=2, seed=3)
    assert [g.seats for g in games] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert games[0].seed == games[1].seed


def test_games_are_rounded_up_to_whole_deals() -> None:
    assert len(schedule(3, players=3, games=7, seed=1)) == 9
    assert len(schedule(2, players=2, games=1, seed=1)) == 2


@pytest.mark.parametrize(("bots", "players", "message"), [
    (1, 2, "at least 2 bots"),
    (3, 2, "give 2 bots for 2 players"),
    (3, 4, "give 2 or 4 bots for 4 players"),
    (2, 3, "give 3 bots for 3 players"),
])
def test_lineups_that_do_not_fit_are_refused(bots: int, players: int, message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        check_lineup(bots, players)


def test_names_of_repeated_specs_get_suffixes() -> None:
    assert bot_names(["greedy", "greedy", "random", "greedy"]) == ["greedy", "greedy#2", "random", "greedy#3"]


def test_each_seat_of_each_game_has_its_own_random_source_from_the_tournament_seed() -> None:
    games = schedule(2, players=2, games=4, seed=9)
    draws = {(g.index, s): bot_rng(9, g, s).random() for g in games for s in (0, 1)}
    assert len(set(draws.values())) == len(draws)
    assert bot_rng(9, games[0], 0).random() == draws[(0, 0)]
    assert bot_rng(10, games[0], 0).random() != draws[(0, 0)]
    assert malice_options(Setup(specs=("random", "random"))) == Options()
