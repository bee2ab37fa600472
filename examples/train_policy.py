#!/usr/bin/env python3
"""Train a small Spite and Malice policy on the CPU with numpy only, then let it play.

REINFORCE (policy gradient with a batch-mean baseline and Adam) of a small MLP over the masked
action space of ``spite/SpiteMalice-v0`` (``docs/rl.md``), against a built-in bot. Needs the
``[rl]`` extra (gymnasium) for training; the trained policy itself needs only numpy.

    python examples/train_policy.py train --preset short --opponent uniform --minutes 3 -o policy.npz
    python examples/train_policy.py evaluate policy.npz --opponent uniform --games 200

The trained policy is a :class:`spite.malice.rl.policy.PolicyBot`, so it plays in tournaments either as
an external program (this script's ``serve`` command speaks docs/bot-protocol.md)::

    spite tournament --bots 'cmd:python examples/train_policy.py serve policy.npz' uniform \\
        --games 100 --preset short

or, where ``spite.malice.rl.policy`` is loaded with the built-in bots, by name: ``policy:policy.npz``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from spite.bots import make_bot
from spite.malice import Options, State
from spite.malice.rl.encoding import Encoding, view_from_json
from spite.malice.rl.policy import MLPPolicy, PolicyBot, masked_softmax


# ---------------------------------------------------------------------- training
class Adam:
    """Adam over a list of arrays (updated in place)."""

    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def ascend(self, grads: list[np.ndarray], b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> None:
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p += self.lr * (m / (1 - b1**self.t)) / (np.sqrt(v / (1 - b2**self.t)) + eps)


def policy_gradient(policy: MLPPolicy, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray,
                    adv: np.ndarray, entropy: float) -> tuple[list[np.ndarray], float]:
    """Gradient of mean(adv · log π(a|x)) + entropy bonus, for every W and b (in layer order)."""
    logits, inputs = policy.forward(obs)
    probs = masked_softmax(logits, masks)
    onehot = np.zeros_like(probs)
    onehot[np.arange(len(actions)), actions] = 1.0
    g = (onehot - probs) * adv[:, None]
    if entropy:
        logp = np.log(np.where(probs > 0, probs, 1.0))
        ent = -(probs * logp).sum(axis=1, keepdims=True)
        g += entropy * (-probs * (logp + ent))  # d(entropy)/d(logits)
    g /= len(actions)
    grads: list[np.ndarray] = []
    for i in range(len(policy.layers) - 1, -1, -1):
        w, _ = policy.layers[i]
        x = inputs[i]
        grads[:0] = [x.T @ g, g.sum(axis=0)]
        if i:
            g = (g @ w.T) * (1.0 - x * x)  # x = tanh of the layer below
    mean_ent = float(-(probs * np.log(np.where(probs > 0, probs, 1.0))).sum(axis=1).mean())
    return grads, mean_ent


def train(args: argparse.Namespace) -> None:
    import gymnasium

    import spite.malice.rl  # noqa: F401  (registers spite/SpiteMalice-v0)

    env = gymnasium.make("spite/SpiteMalice-v0", opponent=args.opponent, preset=args.preset, seat=None,
                         stock_reward=args.stock_reward, text=False).unwrapped
    enc: Encoding = env.encoding
    rng = np.random.default_rng(args.seed)
    meta = {"preset": args.preset, "options": {}, "obs_size": enc.obs_size, "n_actions": enc.n_actions,
            "trained_against": args.opponent, "algorithm": "REINFORCE"}
    policy = MLPPolicy.create(enc.obs_size, enc.n_actions, tuple(args.hidden), rng=rng, meta=meta)
    params = [a for layer in policy.layers for a in layer]
    opt = Adam(params, args.lr)
    deadline = time.monotonic() + 60 * args.minutes
    episode = 0
    seed = args.seed * 1_000_003
    while time.monotonic() < deadline:
        batch_obs, batch_mask, batch_act, batch_ret = [], [], [], []
        results = []
        for _ in range(args.batch):
            obs, _ = env.reset(seed=seed + episode)
            episode += 1
            rewards: list[float] = []
            while True:
                p = policy.probabilities(obs["observation"], obs["action_mask"])
                a = int(rng.choice(len(p), p=p))
                batch_obs.append(obs["observation"])
                batch_mask.append(obs["action_mask"])
                batch_act.append(a)
                obs, r, terminated, truncated, _info = env.step(a)
                rewards.append(r)
                if terminated or truncated:
                    break
            g = 0.0
            rets = []
            for r in reversed(rewards):
                g = r + args.gamma * g
                rets.append(g)
            batch_ret.extend(reversed(rets))
            results.append(env.unwrapped.game.result)
        ret = np.asarray(batch_ret)
        adv = (ret - ret.mean()) / (ret.std() + 1e-8)
        grads, ent = policy_gradient(policy, np.asarray(batch_obs), np.asarray(batch_mask), np.asarray(batch_act),
                                     adv, args.entropy)
        opt.ascend(grads)
        wins = sum(1 for res in results if res is not None and res.winner is not None
                   and res.winner % 2 == env.unwrapped._me % 2)
        print(f"episodes {episode:5d}  steps/episode {len(batch_act) / args.batch:6.1f}  "
              f"wins {wins}/{len(results)}  entropy {ent:.2f}", flush=True)
    policy.meta["episodes"] = episode
    policy.save(args.out)
    print(f"saved {args.out} after {episode} episodes")
    if args.eval_games:
        for opponent in ("uniform", "random", "greedy"):
            evaluate_policy(args.out, args.preset, opponent, args.eval_games, seed=10_000)


# ---------------------------------------------------------------------- evaluation
def evaluate_policy(path: str | Path, preset: str, opponent: str, games: int, seed: int = 0) -> float:
    """Games of the greedy policy against ``opponent``, seats alternating; prints and returns the win rate."""
    opts = Options.from_preset(preset)
    wins = draws = 0
    for k in range(games):
        bots = [PolicyBot.load(str(path)), make_bot(opponent)]
        if k % 2:
            bots.reverse()
        me = k % 2
        state = State.new(opts, seed=seed + k)
        for s, bot in enumerate(bots):
            bot.start_game(opts, s)
        rngs = [random.Random(f"{seed + k}/{s}") for s in range(2)]
        while not state.is_over:
            s = state.to_move
            state.play(bots[s].choose(state.view(s), rngs[s]))
        assert state.result is not None
        if state.result.winner is None:
            draws += 1
        elif state.result.winner == me:
            wins += 1
    rate = wins / games
    print(f"policy vs {opponent} ({preset}, {games} games, seats alternating): "
          f"won {wins}, lost {games - wins - draws}, drawn {draws}: win rate {rate:.1%}")
    return rate


# ---------------------------------------------------------------------- the bot protocol
def serve(args: argparse.Namespace) -> None:
    """Play the policy over docs/bot-protocol.md on standard input and output."""
    bot = PolicyBot.load(args.weights + (",sample" if args.sample else ""))
    opts: Options | None = None

    def send(msg: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "ready", "name": f"policy {Path(args.weights).name}"})
        elif kind == "start":
            opts = Options.from_preset("classic", msg["options"])
            bot.start_game(opts, msg["seat"])
        elif kind == "move":
            if opts is None:
                raise SystemExit("a move request came before the start message")
            view = view_from_json(opts, msg["view"], msg["legal"], msg.get("played_this_turn", 0))
            decision = bot.decide(view, random.Random(msg.get("seed", 0)))
            send({"move": decision.move.text, "why": decision.why})
        elif kind == "quit":
            break


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train a policy and save its weights")
    t.add_argument("--preset", default="short")
    t.add_argument("--opponent", default="uniform", help="bot spec to train against (random, greedy, ...)")
    t.add_argument("--minutes", type=float, default=3.0)
    t.add_argument("--hidden", type=int, nargs="*", default=[64], help="hidden layer sizes (none: linear)")
    t.add_argument("--batch", type=int, default=16, help="episodes per update")
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--gamma", type=float, default=0.98)
    t.add_argument("--entropy", type=float, default=0.003)
    t.add_argument("--stock-reward", type=float, default=0.1, help="shaping: reward per own stock card played")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--eval-games", type=int, default=200, help="games vs uniform, random and greedy after training")
    t.add_argument("-o", "--out", default="policy.npz")
    e = sub.add_parser("evaluate", help="win rate of a saved policy against a bot")
    e.add_argument("weights")
    e.add_argument("--preset", default=None, help="default: the preset the policy was trained for")
    e.add_argument("--opponent", default="uniform")
    e.add_argument("--games", type=int, default=200)
    s = sub.add_parser("serve", help="play the policy over the external bot protocol (for cmd:)")
    s.add_argument("weights")
    s.add_argument("--sample", action="store_true", help="sample moves instead of the most likely one")
    args = parser.parse_args(argv)
    if args.command == "train":
        train(args)
    elif args.command == "evaluate":
        preset = args.preset or MLPPolicy.load(args.weights).meta.get("preset", "classic")
        evaluate_policy(args.weights, preset, args.opponent, args.games)
    else:
        serve(args)


if __name__ == "__main__":
    main()
