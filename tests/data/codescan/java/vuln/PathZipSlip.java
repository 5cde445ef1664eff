    public static void unzip(InputStream in, File destDir) throws IOException {
        try (ZipInputStream zis = new ZipInputStream(in)) {
            ZipEntry entry;
            while ((entry = zis.getNextEntry()) != null) {
                File out = new File(destDir, entry.getName());
                if (entry.isDirectory()) { out.mkdirs(); continue; }
                Files.copy(zis, out.toPath(), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
