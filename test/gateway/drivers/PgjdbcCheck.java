// pgjdbc (Debian libpostgresql-jdbc-java) against the gateway: run by test/gateway/java-driver.test.ts as
// `java -cp /usr/share/java/postgresql.jar PgjdbcCheck.java PORT USER PASSWORD DATABASE TABLE`.
//
// pgjdbc speaks the extended protocol only: unnamed statements, then named server-side ones (S_1, ...)
// from a PreparedStatement's fifth execution, batches as several Bind/Execute before one Sync, a fetch
// size as Execute with a row limit (portal suspension), binary results for the types it knows, and
// savepoints. Every check compares values; the program exits 1 at the first difference and prints how
// many checks passed.
import java.math.BigDecimal;
import java.sql.*;
import java.util.*;

public class PgjdbcCheck {
  static int checks = 0;

  static void check(String what, Object got, Object want) {
    if (!Objects.equals(got, want)) {
      System.out.println("FAIL " + what + ": got " + got + ", want " + want);
      System.exit(1);
    }
    checks++;
  }

  static List<List<Object>> rows(ResultSet rs) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      List<Object> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) row.add(rs.getObject(i));
      out.add(row);
    }
    return out;
  }

  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/" + args[3];
    Properties props = new Properties();
    props.setProperty("user", args[1]);
    props.setProperty("password", args[2]);
    props.setProperty("sslmode", "disable");
    String table = args[4];
    try (Connection c = DriverManager.getConnection(url, props)) {
      check("server major version", c.getMetaData().getDatabaseMajorVersion(), 15);
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, name text, price numeric(10,2), ok boolean, d date, ts timestamp, u uuid, b bytea, big bigint)");
      }
      UUID uuid = UUID.fromString("12345678-1234-5678-1234-567812345678");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
        for (int i = 1; i <= 8; i++) { // from the fifth execution on, a named server-side statement
          p.setInt(1, i);
          p.setString(2, "name " + i + " 'q'");
          p.setBigDecimal(3, new BigDecimal(i + ".25"));
          p.setBoolean(4, i % 2 == 0);
          p.setDate(5, java.sql.Date.valueOf("2024-01-0" + i));
          p.setTimestamp(6, Timestamp.valueOf("2024-01-02 03:04:0" + i + ".5"));
          p.setObject(7, uuid);
          p.setBytes(8, new byte[] {0, (byte) i, (byte) 0xff});
          if (i == 8) p.setNull(9, Types.BIGINT); else p.setLong(9, 1L << (30 + i));
          check("insert count " + i, p.executeUpdate(), 1);
        }
      }
      try (PreparedStatement p = c.prepareStatement("SELECT id, name, price, ok, d, ts, u, b, big FROM " + table + " WHERE id = ?")) {
        for (int i = 1; i <= 7; i++) {
          p.setInt(1, i);
          try (ResultSet rs = p.executeQuery()) {
            check("row " + i + " found", rs.next(), true);
            check("id", rs.getInt(1), i);
            check("name", rs.getString(2), "name " + i + " 'q'");
            check("price", rs.getBigDecimal(3), new BigDecimal(i + ".25"));
            check("ok", rs.getBoolean(4), i % 2 == 0);
            check("date", rs.getDate(5).toString(), "2024-01-0" + i);
            check("timestamp", rs.getTimestamp(6).toString(), "2024-01-02 03:04:0" + i + ".5");
            check("uuid", rs.getObject(7), uuid);
            check("bytea", Arrays.toString(rs.getBytes(8)), Arrays.toString(new byte[] {0, (byte) i, (byte) 0xff}));
            check("bigint", rs.getLong(9), 1L << (30 + i));
            check("one row", rs.next(), false);
          }
        }
      }
      ResultSetMetaData md = c.createStatement().executeQuery("SELECT * FROM " + table + " WHERE id = 0").getMetaData();
      List<String> types = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) types.add(md.getColumnName(i) + ":" + md.getColumnTypeName(i));
      check("column types", types.toString(), "[id:int4, name:text, price:numeric, ok:bool, d:date, ts:timestamp, u:uuid, b:bytea, big:int8]");

      // Batches, transactions, savepoints, errors.
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("UPDATE " + table + " SET name = ? WHERE id = ?")) {
        for (int i = 1; i <= 3; i++) {
          p.setString(1, "batch " + i);
          p.setInt(2, i);
          p.addBatch();
        }
        check("batch counts", Arrays.toString(p.executeBatch()), "[1, 1, 1]");
      }
      Savepoint sp = c.setSavepoint("before_dup");
      try (Statement s = c.createStatement()) {
        s.executeUpdate("UPDATE " + table + " SET name = 'undone' WHERE id = 4");
        s.executeUpdate("INSERT INTO " + table + " (id) VALUES (1)");
        check("duplicate key raised", false, true);
      } catch (SQLException e) {
        check("duplicate key SQLSTATE", e.getSQLState(), "23505");
      }
      c.rollback(sp);
      c.commit();
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name FROM " + table + " WHERE id <= 4 ORDER BY id")) {
        check("after batch and savepoint", rows(rs).toString(), "[[batch 1], [batch 2], [batch 3], [name 4 'q']]");
      }
      c.commit();
      // A fetch size outside autocommit: Execute with a row limit, the portal suspended between fetches.
      try (PreparedStatement p = c.prepareStatement("SELECT id FROM " + table + " WHERE id > ? ORDER BY id")) {
        p.setFetchSize(3);
        p.setInt(1, 0);
        try (ResultSet rs = p.executeQuery()) {
          List<Integer> ids = new ArrayList<>();
          while (rs.next()) ids.add(rs.getInt(1));
          check("fetch size pages", ids.toString(), "[1, 2, 3, 4, 5, 6, 7, 8]");
        }
      }
      c.rollback();
      try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " (id, name) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
        p.setInt(1, 100);
        p.setString(2, "generated");
        p.executeUpdate();
        try (ResultSet keys = p.getGeneratedKeys()) {
          check("generated keys", keys.next() ? keys.getInt("id") + "/" + keys.getString("name") : "none", "100/generated");
        }
      }
      c.commit();
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        s.execute("DROP TABLE " + table);
      }
    }
    System.out.println("ok " + checks + " checks");
  }
}
