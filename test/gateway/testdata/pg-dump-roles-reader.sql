SELECT current_user;
SELECT owner_name FROM accounts ORDER BY id;
SELECT * FROM rich;
SELECT note FROM audit;
INSERT INTO accounts (owner_name) VALUES ('cy');
