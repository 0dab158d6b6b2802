import mysticvale as mv
from mysticvale.bots import SeatView, make_bot


def test_random_games_end_for_2_to_4_players():
    for players in (2, 3, 4):
        game = mv.new_game(players=players, seed=players)
        bots = [make_bot("random", seed=p) for p in range(players)]
        steps = 0
        while not game.is_over():
            p = game.current_player
            game.apply_action(bots[p].act(SeatView(game, p)))
            steps += 1
            assert steps < 50_000
        assert game.winners()
        assert game.current_player is None
