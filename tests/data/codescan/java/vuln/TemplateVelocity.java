    @PostMapping("/preview")
    public String preview(@RequestParam String template) {
        VelocityContext ctx = new VelocityContext();
        ctx.put("user", currentUser());
        StringWriter out = new StringWriter();
        Velocity.evaluate(ctx, out, "preview", template);
        return out.toString();
    }
