        String file = request.getParameter("file");
        Runtime.getRuntime().exec("convert " + file + " out.png");
