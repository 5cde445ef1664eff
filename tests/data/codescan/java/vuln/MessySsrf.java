// ... inside your controller
String target = request.getParameter("target");
HttpURLConnection conn = (HttpURLConnection) new URL(target).openConnection();
conn.setRequestMethod("GET");
try (BufferedReader in = new BufferedReader(new InputStreamReader(conn.getInputStream()))) {
    ...
}
