// The replay board of Pebbles (replay.js opens a game's replay-board.js from its folder).
export { PebblesReplay as ReplayBoard } from "./pebbles.js";
