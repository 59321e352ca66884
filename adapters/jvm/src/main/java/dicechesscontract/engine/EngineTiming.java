// SPDX-License-Identifier: Apache-2.0
package dicechesscontract.engine;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Times the engine's extraction of the probes given on stdin (one JSON object per line: id, schemaId, fen,
 * side), for {@code python -m contract bench --engine-version V}: every probe is extracted {@code WARMUP}
 * times first (the JIT compiles the extractors), then {@code REPEAT} timed times, each from a freshly parsed
 * state, timing the extractor alone (parsing is not timed, as in the kit's bench). Prints one JSON line per
 * probe: {@code {"id", "status": "ok", "medianNs"}}, or {@code unsupported}/{@code error} with a message.
 *
 * <p>Usage: {@code java -cp CP dicechesscontract.engine.EngineTiming WARMUP REPEAT}.
 */
public final class EngineTiming {
    private EngineTiming() {}

    private record Probe(String id, String schemaId, String fen, String side) {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: EngineTiming WARMUP REPEAT");
            System.exit(2);
        }
        int warmup = Integer.parseInt(args[0]);
        int repeat = Integer.parseInt(args[1]);
        List<Probe> probes = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (!line.isBlank()) {
                JsonObject o = JsonParser.parseString(line).getAsJsonObject();
                probes.add(new Probe(o.get("id").getAsString(), o.get("schemaId").getAsString(),
                        o.get("fen").getAsString(), o.get("side").getAsString()));
            }
        }
        Features features = new Features();
        List<String> answers = new ArrayList<>();
        for (int round = 0; round < warmup; round++) {
            for (Probe probe : probes) {
                try {
                    features.extract(probe.schemaId(), probe.fen(), probe.side());
                } catch (Exception | LinkageError e) {
                    break; // reported below, when timed
                }
            }
        }
        for (Probe probe : probes) {
            JsonObject out = new JsonObject();
            out.addProperty("id", probe.id());
            try {
                Object extractor = features.extractors().get(probe.schemaId());
                if (extractor == null) {
                    throw new Scala.Missing("the engine on the classpath has no extractor for feature schema '"
                            + probe.schemaId() + "'");
                }
                long[] samples = new long[repeat];
                for (int i = 0; i < repeat; i++) {
                    Object state = Features.parse(probe.fen());
                    long start = System.nanoTime();
                    Features.extract(extractor, state, probe.side());
                    samples[i] = System.nanoTime() - start;
                }
                Arrays.sort(samples);
                long median = repeat % 2 == 1 ? samples[repeat / 2]
                        : (samples[repeat / 2 - 1] + samples[repeat / 2]) / 2;
                out.addProperty("status", "ok");
                out.addProperty("medianNs", median);
            } catch (Scala.Missing e) {
                out.addProperty("status", "unsupported");
                out.addProperty("message", e.getMessage());
            } catch (RuntimeException | LinkageError e) {
                out.addProperty("status", "error");
                out.addProperty("message", e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            answers.add(out.toString());
        }
        for (String answer : answers) {
            System.out.println(answer);
        }
        System.out.flush();
    }
}
