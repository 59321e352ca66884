package dicechess.contract;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Build step: {@code LockWriter DIR VERSION} writes {@code DIR/dicechess-contract.lock.json} for the vendored files
 * under DIR and {@code DIR/kit-files.txt}, the list of every kit file a layout can copy ({@link KitData}), each through
 * a temporary sibling, then a rename, so the jar carries the lock of the files it carries and their list.
 */
public final class LockWriter {
    private LockWriter() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: LockWriter DIR VERSION");
        }
        Path root = Path.of(args[0]);
        write(root, Lock.LOCK_NAME, Lock.compute(root, args[1]).toJson());
        write(root, KitData.INDEX, KitData.directory(root).index());
    }

    private static void write(Path root, String name, String text) throws IOException {
        Path staged = root.resolve("." + name + ".tmp");
        Files.writeString(staged, text, StandardCharsets.UTF_8);
        Files.move(staged, root.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
