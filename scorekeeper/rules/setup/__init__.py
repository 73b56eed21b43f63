"""What a table agrees before the first hand: the rule set (each game a value answering the
same questions, and the topics those answers cite), who sits where under which name, the
sides and the house rules."""
