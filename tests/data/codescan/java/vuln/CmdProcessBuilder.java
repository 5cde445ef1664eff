    public void compress(String dir) throws IOException {
        new ProcessBuilder("bash", "-c", "tar czf backup.tgz " + dir).start();
    }
