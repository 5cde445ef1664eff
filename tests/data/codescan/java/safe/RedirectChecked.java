    @GetMapping("/sso/return")
    public String ssoReturn(@RequestParam("next") String next) {
        // a path on this site only: browsers read "/\evil.com" (and a tab after the slash) as "//evil.com"
        boolean local = next.startsWith("/") && !next.startsWith("//")
                && next.chars().noneMatch(c -> c == '\\' || Character.isISOControl(c));
        return local ? "redirect:" + next : "redirect:/";
    }
