        String name = request.getParameter("template");
        File f = new File(TEMPLATE_DIR, name);
        String text = new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
        response.getWriter().write(text);
