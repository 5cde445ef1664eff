    @GetMapping("/ping")
    public String ping(@RequestParam String host) throws IOException {
        Process p = Runtime.getRuntime().exec(new String[]{"sh", "-c", "ping -c 1 " + host});
        return new String(p.getInputStream().readAllBytes());
    }
