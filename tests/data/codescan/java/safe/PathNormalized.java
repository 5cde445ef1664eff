    @GetMapping("/download")
    public ResponseEntity<Resource> download(@RequestParam String filename) throws IOException {
        Path root = Paths.get("/srv/uploads").toRealPath();
        Path file = root.resolve(filename).normalize();
        if (!file.startsWith(root)) {
            return ResponseEntity.status(HttpStatus.FORBIDDEN).build();
        }
        return ResponseEntity.ok().body(new UrlResource(file.toUri()));
    }
