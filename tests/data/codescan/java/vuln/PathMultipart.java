    @PostMapping("/upload")
    public String upload(@RequestParam("file") MultipartFile file) throws IOException {
        file.transferTo(new File(UPLOAD_DIR + file.getOriginalFilename()));
        return "ok";
    }
