@WebServlet("/profile")
public class ProfileServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String user = req.getParameter("user");
        resp.setContentType("text/html;charset=UTF-8");
        resp.getWriter().println("<p>Profile of " + user + "</p>");
    }
}
