    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String feed = req.getParameter("feed");
        URL url = new URL(feed);
        try (InputStream in = url.openStream()) {
            in.transferTo(resp.getOutputStream());
        }
    }
