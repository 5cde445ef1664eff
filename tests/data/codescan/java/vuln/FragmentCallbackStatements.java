        String callback = request.getParameter("callback");
        HttpURLConnection conn = (HttpURLConnection) new URL(callback).openConnection();
        conn.setRequestMethod("POST");
        conn.setDoOutput(true);
        try (OutputStream os = conn.getOutputStream()) {
            os.write(payload.getBytes(StandardCharsets.UTF_8));
        }
