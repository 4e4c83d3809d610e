// Starter bot for La Part du Chef in Java (OpenJDK 17, standard library only), bot protocol v1: one
// JSON object per line on stdin, one reply per line on stdout, logs on stderr. It plays legal moves
// with the simplest strategy: cut evenly, take the first portion nobody took, keep every slice.
// Upload this file as Bot.java (the public class names the file), or zip it as Main.java with class Main.
// Try it: javac Bot.java && echo '{"type":"start","protocol":1,"game":"part-du-chef","seat":0,"players":2,"options":{}}' | java Bot
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public class Bot {
    /** The position right after "key": (spaces skipped), searching from `from`; -1 if absent. */
    static int valueOf(String text, String key, int from) {
        int at = text.indexOf("\"" + key + "\"", from);
        if (at < 0) return -1;
        at += key.length() + 2;
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == ':')) at++;
        return at;
    }

    static boolean starts(String text, int at, String prefix) {
        return at >= 0 && text.startsWith(prefix, at);
    }

    static int number(String text, int at) {
        int end = at;
        while (end < text.length() && Character.isDigit(text.charAt(end))) end++;
        return Integer.parseInt(text.substring(at, end));
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            int type = valueOf(line, "type", 0);
            if (starts(line, type, "\"start\"")) {
                System.err.println("hello from Java");
                System.out.println("{\"type\":\"ready\",\"more_games\":true}");
            } else if (starts(line, type, "\"act\"")) {
                int obs = valueOf(line, "observation", 0);
                int players = number(line, valueOf(line, "players", obs));
                if (starts(line, valueOf(line, "phase", obs), "\"cut\"")) {
                    StringBuilder cuts = new StringBuilder();
                    for (int i = 0; i < players; i++) cuts.append(i == 0 ? "" : ",").append(i * 13 / players);
                    System.out.println("{\"type\":\"cut\",\"cuts\":[" + cuts + "],\"marianne\":null}");
                } else {
                    int portion = 0;
                    int at = valueOf(line, "portions", obs);
                    while ((at = valueOf(line, "index", at)) >= 0) {
                        int index = number(line, at);
                        if (starts(line, valueOf(line, "taken_by", at), "null")) {
                            portion = index;
                            break;
                        }
                    }
                    System.out.println("{\"type\":\"take\",\"portion\":" + portion + ",\"eat\":[],\"steals\":[],\"marianne\":null}");
                }
            } else if (starts(line, type, "\"end\"")) {
                continue; // more_games: the next game's start may follow
            }
            System.out.flush();
        }
    }
}
