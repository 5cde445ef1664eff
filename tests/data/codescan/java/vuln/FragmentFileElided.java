    @GetMapping("/files")
    public ResponseEntity<Resource> get(@RequestParam String name) {
        // ... auth check omitted
        File f = new File(storageRoot, name);
        ...
        return ResponseEntity.ok(new FileSystemResource(f));
    }
