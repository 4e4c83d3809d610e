// Starter bot for La Part du Chef in C++ (g++ -O2 -std=gnu++17), bot protocol v1: one JSON object
// per line on stdin, one reply per line on stdout, logs on stderr. It plays legal moves with the
// simplest strategy: cut evenly, take the first portion nobody took, keep every slice. Improve it!
// Try it: g++ -O2 -o bot main.cpp && echo '{"type":"start","protocol":1,"game":"part-du-chef","seat":0,"players":2,"options":{}}' | ./bot
#include <iostream>
#include <string>

// The position right after "key": (spaces skipped), searching from `from`; npos if absent.
static std::size_t value_of(const std::string &text, const std::string &key, std::size_t from = 0) {
    std::size_t at = text.find("\"" + key + "\"", from);
    if (at == std::string::npos) return at;
    at += key.size() + 2;
    while (at < text.size() && (text[at] == ' ' || text[at] == ':')) at++;
    return at;
}

static bool starts(const std::string &text, std::size_t at, const std::string &prefix) {
    return at != std::string::npos && text.compare(at, prefix.size(), prefix) == 0;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        std::size_t type = value_of(line, "type");
        if (starts(line, type, "\"start\"")) {
            std::cerr << "hello from C++" << std::endl;
            std::cout << "{\"type\":\"ready\",\"more_games\":true}" << std::endl;
        } else if (starts(line, type, "\"act\"")) {
            std::size_t obs = value_of(line, "observation");
            int players = std::stoi(line.substr(value_of(line, "players", obs)));
            if (starts(line, value_of(line, "phase", obs), "\"cut\"")) {
                std::string cuts;
                for (int i = 0; i < players; i++) cuts += (i ? "," : "") + std::to_string(i * 13 / players);
                std::cout << "{\"type\":\"cut\",\"cuts\":[" << cuts << "],\"marianne\":null}" << std::endl;
            } else {
                int portion = 0;
                std::size_t at = value_of(line, "portions", obs);
                while ((at = value_of(line, "index", at)) != std::string::npos) {
                    int index = std::stoi(line.substr(at));
                    if (starts(line, value_of(line, "taken_by", at), "null")) {
                        portion = index;
                        break;
                    }
                }
                std::cout << "{\"type\":\"take\",\"portion\":" << portion
                          << ",\"eat\":[],\"steals\":[],\"marianne\":null}" << std::endl;
            }
        } else if (starts(line, type, "\"end\"")) {
            continue;  // more_games: the next game's start may follow
        }
    }
    return 0;
}
