package dicechess.contract;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** The kit's files as the built jar carries them (target/classes/dicechess-contract/), for the tests. */
final class Data {
    private Data() {
    }

    /** The directory the jar's data was built into. */
    static Path root() {
        try {
            return Path.of(Data.class.getClassLoader().getResource(VendorCheck.DATA + Lock.LOCK_NAME).toURI())
                .getParent();
        } catch (URISyntaxException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static Object json(String relative) throws IOException, Json.JsonException {
        return Json.parse(Files.readString(root().resolve(relative), StandardCharsets.UTF_8));
    }

    static String gunzip(String relative) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(root().resolve(relative)))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
