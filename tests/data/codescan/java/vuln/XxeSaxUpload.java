    @PostMapping("/import/feed")
    public ResponseEntity<String> importFeed(@RequestParam("file") MultipartFile file) throws Exception {
        SAXParserFactory spf = SAXParserFactory.newInstance();
        SAXParser parser = spf.newSAXParser();
        FeedHandler handler = new FeedHandler();
        parser.parse(file.getInputStream(), handler);
        return ResponseEntity.ok("imported " + handler.count() + " items");
    }
