// Starter bot for La Part du Chef in Go (standard library only), bot protocol v1: one JSON object
// per line on stdin, one reply per line on stdout, logs on stderr. It plays legal moves with the
// simplest strategy: cut evenly, take the first portion nobody took, keep every slice. Improve it!
// Try it: go build -o bot main.go && echo '{"type":"start","protocol":1,"game":"part-du-chef","seat":0,"players":2,"options":{}}' | ./bot
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

type portion struct {
	Index   int  `json:"index"`
	TakenBy *int `json:"taken_by"`
}

type message struct {
	Type        string `json:"type"`
	Observation struct {
		Players  int       `json:"players"`
		Phase    string    `json:"phase"`
		Portions []portion `json:"portions"`
	} `json:"observation"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var msg message
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			fmt.Fprintln(os.Stderr, "bad message:", err)
			continue
		}
		obs := msg.Observation
		switch {
		case msg.Type == "start":
			fmt.Fprintln(os.Stderr, "hello from Go")
			fmt.Fprintln(out, `{"type":"ready","more_games":true}`)
		case msg.Type == "act" && obs.Phase == "cut":
			cuts := make([]int, obs.Players)
			for i := range cuts {
				cuts[i] = i * 13 / obs.Players
			}
			reply, _ := json.Marshal(map[string]any{"type": "cut", "cuts": cuts, "marianne": nil})
			fmt.Fprintln(out, string(reply))
		case msg.Type == "act":
			choice := 0
			for _, p := range obs.Portions {
				if p.TakenBy == nil {
					choice = p.Index
					break
				}
			}
			fmt.Fprintf(out, `{"type":"take","portion":%d,"eat":[],"steals":[],"marianne":null}`+"\n", choice)
		case msg.Type == "end":
			// more_games: the next game's start may follow.
		}
		out.Flush()
	}
}
