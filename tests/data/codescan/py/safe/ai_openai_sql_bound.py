ALLOWED = {"region", "product", "month"}

def grouped_totals(question: str):
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "Which column should I group by: region, product or month? " + question}],
    )
    column = completion.choices[0].message.content.strip().lower()
    if column not in ALLOWED:
        raise ValueError("unexpected column")
    cur = db.cursor()
    cur.execute("SELECT label, total FROM totals WHERE grouping = ?", (column,))
    return cur.fetchall()
