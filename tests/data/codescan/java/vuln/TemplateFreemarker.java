    public String render(String userTemplate, Map<String, Object> model) throws Exception {
        Template t = new Template("custom", new StringReader(userTemplate), cfg);
        StringWriter w = new StringWriter();
        t.process(model, w);
        return w.toString();
    }
