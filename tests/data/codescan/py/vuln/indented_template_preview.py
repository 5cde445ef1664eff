    def preview(self):
        body = request.form["body"]
        return render_template_string("<div class='preview'>" + body + "</div>")
