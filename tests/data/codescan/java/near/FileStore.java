package com.example.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/** Files are stored under server-generated UUID names; a caller can only pass an id back. */
public class FileStore {
    private final Path root;

    public FileStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public UUID save(byte[] data) throws IOException {
        UUID id = UUID.randomUUID();
        Files.write(root.resolve(id + ".bin"), data);
        return id;
    }

    public byte[] load(String id) throws IOException {
        UUID parsed = UUID.fromString(id); // IllegalArgumentException for anything else
        return Files.readAllBytes(root.resolve(parsed + ".bin"));
    }
}
