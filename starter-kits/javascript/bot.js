// Starter bot for La Part du Chef in JavaScript (Node.js 20), bot protocol v1:
// one JSON object per line on stdin, one reply per line on stdout, logs on stderr.
// Try it: echo '{"type":"start","protocol":1,"game":"part-du-chef","seat":0,"players":2,"options":{}}' | node bot.js
"use strict";

const readline = require("readline");

const BURNT_PENALTY = 3;

// A rough worth: one point per slice, olives if eaten later, burnt slices cost 3.
function sliceValue(piece) {
  return piece.sort === "burnt" ? -BURNT_PENALTY : 1 + piece.olives;
}

// Portion i runs from cuts[i] up to cuts[i+1]-1; the last one wraps around.
function portionsOf(ring, cuts) {
  return cuts.map((start, i) => {
    const end = cuts[(i + 1) % cuts.length];
    const length = ((end - start + 13) % 13) || 13;
    return Array.from({ length }, (_, k) => ring[(start + k) % 13]);
  });
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// Cut evenly, turned so that the best portion (the others choose first) is as poor as possible.
function chooseCut(obs) {
  const spacing = [...new Set(Array.from({ length: obs.players }, (_, i) => Math.round((i * 13) / obs.players)))];
  let best = null;
  let bestRichest = Infinity;
  for (let offset = 0; offset < 13; offset++) {
    const cuts = spacing.map((c) => (c + offset) % 13).sort((a, b) => a - b);
    const richest = Math.max(...portionsOf(obs.ring, cuts).map((p) => sum(p.map(sliceValue))));
    if (richest < bestRichest) {
      best = cuts;
      bestRichest = richest;
    }
  }
  return { type: "cut", cuts: best, marianne: null };
}

// Take the richest portion left and keep every slice.
function chooseTake(obs) {
  const byId = new Map(obs.ring.map((piece) => [piece.id, piece]));
  const value = (portion) => sum(portion.slices.map((id) => sliceValue(byId.get(id))));
  const free = obs.portions.filter((p) => p.taken_by === null);
  const best = free.reduce((a, b) => (value(b) > value(a) ? b : a));
  return { type: "take", portion: best.index, eat: [], steals: [], marianne: null };
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  let reply = null;
  if (message.type === "start") {
    console.error(`seat ${message.seat} of ${message.players}`);
    // more_games: this bot keeps nothing from one game to the next, so one process may play many.
    reply = { type: "ready", more_games: true };
  } else if (message.type === "act") {
    const obs = message.observation;
    reply = obs.phase === "cut" ? chooseCut(obs) : chooseTake(obs);
  } else if (message.type === "end") {
    console.error(`final ranks ${JSON.stringify(message.ranks)}`);
    // The next game's "start" may follow; the arena stops the process when it is done.
  }
  if (reply !== null) process.stdout.write(JSON.stringify(reply) + "\n");
});
