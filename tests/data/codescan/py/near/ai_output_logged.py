import logging

log = logging.getLogger(__name__)

def summarise(ticket_text):
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "Summarise: " + ticket_text}],
    )
    summary = completion.choices[0].message.content
    log.info("summary length %d", len(summary))
    cursor.execute("UPDATE tickets SET summary = %s WHERE id = %s", (summary, ticket_id))
    return render_template("ticket.html", summary=summary)
