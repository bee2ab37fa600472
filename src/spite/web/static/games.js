// Which games the page knows and their presets and computer levels: small, so that the lobby and
// the Spite and Malice table can know about Spit without loading its screen (spit.js).

export const SPIT_GAMES = ["spit", "speed"];
export const SPIT_LEVELS = ["beginner", "club", "expert"];
export const SPIT_PRESETS = {
  spit: ["spit", "spit-jokers", "three-piles", "slowpoke", "ace-bridge", "timed", "rounds"],
  speed: ["speed"],
};
