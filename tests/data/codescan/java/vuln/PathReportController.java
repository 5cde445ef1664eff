    @GetMapping("/reports/download")
    public ResponseEntity<byte[]> download(@RequestParam String name) throws IOException {
        Path file = Paths.get(reportDir).resolve(name);
        byte[] content = Files.readAllBytes(file);
        return ResponseEntity.ok()
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"report.pdf\"")
                .body(content);
    }
