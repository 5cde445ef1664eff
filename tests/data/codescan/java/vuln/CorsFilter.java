        HttpServletResponse res = (HttpServletResponse) response;
        res.setHeader("Access-Control-Allow-Origin", ((HttpServletRequest) request).getHeader("Origin"));
        res.setHeader("Access-Control-Allow-Credentials", "true");
        chain.doFilter(request, response);
