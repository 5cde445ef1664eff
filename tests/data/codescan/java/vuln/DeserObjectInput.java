    @PostMapping("/session/import")
    public String importSession(HttpServletRequest request) throws Exception {
        ObjectInputStream ois = new ObjectInputStream(request.getInputStream());
        UserSession s = (UserSession) ois.readObject();
        return s.getUser();
    }
