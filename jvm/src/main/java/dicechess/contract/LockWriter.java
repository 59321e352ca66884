package dicechess.contract;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Build step: {@code LockWriter DIR VERSION} writes {@code DIR/dicechess-contract.lock.json} for the vendored files
 * under DIR (through a temporary sibling, then a rename), so the jar carries the lock of the files it carries.
 */
public final class LockWriter {
    private LockWriter() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: LockWriter DIR VERSION");
        }
        Path root = Path.of(args[0]);
        Lock lock = Lock.compute(root, args[1]);
        Path target = root.resolve(Lock.LOCK_NAME);
        Path staged = root.resolve("." + Lock.LOCK_NAME + ".tmp");
        Files.writeString(staged, lock.toJson(), StandardCharsets.UTF_8);
        Files.move(staged, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
