    @PostMapping("/render")
    public String render(@RequestBody RenderRequest body) throws Exception {
        String source = body.getTemplate();
        Template t = new Template("user", new StringReader(source), freemarkerConfig);
        StringWriter out = new StringWriter();
        t.process(Map.of("user", currentUser()), out);
        return out.toString();
    }
