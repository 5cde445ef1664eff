    @GetMapping("/doc/{section}")
    public String doc(@PathVariable String section) {
        return "docs/" + section;
    }
