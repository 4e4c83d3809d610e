// Starter bot for La Part du Chef in Rust (rustc, edition 2021, standard library only), bot
// protocol v1: one JSON object per line on stdin, one reply per line on stdout, logs on stderr.
// It plays legal moves with the simplest strategy: cut evenly, take the first portion nobody took,
// keep every slice. Improve it!
// Try it: rustc -O -o bot main.rs && echo '{"type":"start","protocol":1,"game":"part-du-chef","seat":0,"players":2,"options":{}}' | ./bot
use std::io::{self, BufRead, Write};

/// The text right after "key": (spaces skipped), or "" if absent.
fn value_of<'a>(text: &'a str, key: &str) -> &'a str {
    let pattern = format!("\"{}\"", key);
    match text.find(&pattern) {
        Some(at) => text[at + pattern.len()..].trim_start_matches(|c| c == ' ' || c == ':'),
        None => "",
    }
}

fn number(text: &str) -> i64 {
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().unwrap_or(0)
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        let kind = value_of(&line, "type");
        let reply = if kind.starts_with("\"start\"") {
            eprintln!("hello from Rust");
            "{\"type\":\"ready\",\"more_games\":true}".to_string()
        } else if kind.starts_with("\"act\"") {
            let obs = value_of(&line, "observation");
            let players = number(value_of(obs, "players"));
            if value_of(obs, "phase").starts_with("\"cut\"") {
                let cuts: Vec<String> = (0..players).map(|i| (i * 13 / players).to_string()).collect();
                format!("{{\"type\":\"cut\",\"cuts\":[{}],\"marianne\":null}}", cuts.join(","))
            } else {
                let mut rest = value_of(obs, "portions");
                let mut portion = 0;
                loop {
                    rest = value_of(rest, "index");
                    if rest.is_empty() {
                        break;
                    }
                    let index = number(rest);
                    if value_of(rest, "taken_by").starts_with("null") {
                        portion = index;
                        break;
                    }
                }
                format!("{{\"type\":\"take\",\"portion\":{},\"eat\":[],\"steals\":[],\"marianne\":null}}", portion)
            }
        } else if kind.starts_with("\"end\"") {
            continue; // more_games: the next game's start may follow
        } else {
            continue;
        };
        writeln!(out, "{}", reply).expect("stdout");
        out.flush().expect("stdout");
    }
}
