from openai import OpenAI

client = OpenAI()

def monthly_report(question: str):
    """Let the model write the query for the analytics dashboard."""
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "Translate the question into one SQLite SELECT over the sales table."},
            {"role": "user", "content": question},
        ],
    )
    sql = completion.choices[0].message.content.strip().strip("`")
    cur = db.cursor()
    cur.execute(sql)
    return cur.fetchall()
