        if (apiKey.equals(request.getHeader("X-API-KEY"))) {
            chain.doFilter(request, response);
            return;
        }
        ((HttpServletResponse) response).sendError(401);
