    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String target = request.getParameter("url");
        response.sendRedirect(target);
    }
