-- Full-text search (docs/api.md, "Search"; docs/decisions.md, "Search").
--
-- dealctl_search_fold is what SQLite's tokenizer does before it stems
-- (unicode61 remove_diacritics 2): letters lowered and their accents
-- taken off, by a table (translate) made by internal/search.FoldTable
-- and checked against it by a test, since unaccent is a contrib extension
-- a hosted database may lack and lower() lowers only ASCII under the C
-- locale. Combining accents typed apart (U+0300 to U+036F, at the end of
-- the first string, with nothing facing them) are dropped. . _ / @ and
-- : become spaces, as SQLite's tokenizer splits words there: a file
-- name (report_2023.pdf, which PostgreSQL's parser would take as one
-- host name) is its words, and 2.3 is "2" then "3", found as typed by a
-- phrase, not inside 12.3. translate() walks its table for every
-- character (a text of 200 takes 0.4 ms with the whole table), so a text
-- of ASCII alone, most of a deal's, is read against the five word breaks
-- only; and no regular expression: the function runs again on every row
-- a phrase's match rechecks.
-- Both functions have SQL-standard bodies, bound when they are made, so
-- they do not depend on the search_path (PostgreSQL 14 or newer).
CREATE FUNCTION dealctl_search_fold(t text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT
    RETURN lower(CASE WHEN octet_length(t) = char_length(t) THEN translate(t, '._/@:', '     ')
        ELSE translate(t,
        'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĐĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦĨĩĪīĬĭĮįİĲĴĵĶķĹĺĻļĽľĿŁŃńŅņŇňŊŌōŎŏŐőŒŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƁƂƄƆƇƉƊƋƎƏƐƑƓƔƖƗƘƜƝƟƠơƢƤƦƧƩƬƮƯưƱƲƳƵƷƸƼǄǅǇǈǊǋǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǢǣǤǦǧǨǩǪǫǬǭǮǯǰǱǲǴǵǶǷǸǹǺǻǼǽǾǿȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȜȞȟȠȢȤȦȧȨȩȪȫȬȭȮȯȰȱȲȳȺȻȽȾɁɃɄɅɆɈɊɌɎͰͲʹͶͿΆΈΉΊΌΎΏΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫάέήίΰϊϋόύώϏϓϔϘϚϜϞϠϢϤϦϨϪϬϮϴϷϹϺϽϾϿЀЁЂЃЄЅІЇЈЉЊЋЌЍЎЏАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯйѐёѓїќѝўѠѢѤѦѨѪѬѮѰѲѴѶѷѸѺѼѾҀҊҌҎҐҒҔҖҘҚҜҞҠҢҤҦҨҪҬҮҰҲҴҶҸҺҼҾӀӁӂӃӅӇӉӋӍӐӑӒӓӔӖӗӘӚӛӜӝӞӟӠӢӣӤӥӦӧӨӪӫӬӭӮӯӰӱӲӳӴӵӶӸӹӺӼӾḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẞẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹỺỼỾ._/@:̴̵̶̷̸̡̢̧̨̛̖̗̘̙̜̝̞̟̠̣̤̥̦̩̪̫̬̭̮̯̰̱̲̳̹̺̻̼͇͈͉͍͎̀́̂̃̄̅̆̇̈̉̊̋̌̍̎̏̐̑̒̓̔̽̾̿̀́͂̓̈́͆͊͋͌̕̚ͅ͏͓͔͕͖͙͚͐͑͒͗͛ͣͤͥͦͧͨͩͪͫͬͭͮͯ͘͜͟͢͝͞͠͡',
        'aaaaaaæceeeeiiiiðnoooooøuuuuyþaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddđeeeeeeeeeegggggggghhħiiiiiiiiiĳjjkkllllllŀłnnnnnnŋooooooœrrrrrrssssssssttttŧuuuuuuuuuuuuwwyyyzzzzzzɓƃƅɔƈɖɗƌǝəɛƒɠɣɩɨƙɯɲɵooƣƥʀƨʃƭʈuuʊʋƴƶʒƹƽǆǆǉǉǌǌaaiioouuuuuuuuuuaaaaææǥggkkooooʒʒjǳǳggƕƿnnaaææøøaaaaeeeeiiiioooorrrruuuussttȝhhƞȣȥaaeeooooooooyyⱥȼƚⱦɂƀʉʌɇɉɋɍɏͱͳʹͷϳαεηιουωιαβγδεζηθικλμνξοπρστυφχψωιυαεηιυιυουωϗϒϒϙϛϝϟϡϣϥϧϩϫϭϯθϸϲϻͻͼͽееђгєѕііјљњћкиуџабвгдежзииклмнопрстуфхцчшщъыьэюяиеегікиуѡѣѥѧѩѫѭѯѱѳѵѵѵѹѻѽѿҁҋҍҏґғҕҗҙқҝҟҡңҥҧҩҫҭүұҳҵҷҹһҽҿӏжжӄӆӈӊӌӎааааӕееәәәжжззӡииииооөөөээууууууччӷыыӻӽӿaabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwyſßaaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyyỻỽỿ     ') END);

-- The words of one text, folded and stemmed (english: "accounts" is
-- "account"; to_tsvector drops English stop words).
CREATE FUNCTION dealctl_search_vector(t text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN to_tsvector('pg_catalog.english'::regconfig, coalesce(dealctl_search_fold(t), ''));

-- A request's fields, weighted so that a search tells which field
-- matched (ts_filter): A the number, B the title, C the body, D the
-- requester. Kept in a table of their own, not in a stored generated
-- column of requests: PostgreSQL computes such a column again on every
-- UPDATE of the row, and every post UPDATEs its request (status,
-- updated_at), which cost four to_tsvector and new GIN entries a post
-- (+89 % a post on the benchmark's deal). The triggers write the vector
-- when a request is made and when its number, title, body or requester
-- change (renumber, edit), in the statement's transaction; a request's
-- delete takes its row (ON DELETE CASCADE).
CREATE TABLE request_search (
    request_id TEXT PRIMARY KEY REFERENCES requests(id) ON DELETE CASCADE,
    vector     tsvector NOT NULL
);
CREATE FUNCTION dealctl_request_vector(number text, title text, body text, requester text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN setweight(dealctl_search_vector(number), 'A') || setweight(dealctl_search_vector(title), 'B')
        || setweight(dealctl_search_vector(body), 'C') || setweight(dealctl_search_vector(requester), 'D');
-- A trigger's function is PL/pgSQL, whose names are looked up when it
-- runs: its search_path is the migration's.
CREATE FUNCTION dealctl_request_search() RETURNS trigger
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO request_search (request_id, vector)
        VALUES (NEW.id, dealctl_request_vector(NEW.number, NEW.title, NEW.body, NEW.requester))
        ON CONFLICT (request_id) DO UPDATE SET vector = EXCLUDED.vector;
    RETURN NULL;
END $$;
CREATE TRIGGER requests_search_insert AFTER INSERT ON requests
    FOR EACH ROW EXECUTE FUNCTION dealctl_request_search();
-- updateRequest sets every field, so UPDATE OF alone would fire on
-- every post: the WHEN keeps it to a change of the four.
CREATE TRIGGER requests_search_update AFTER UPDATE OF number, title, body, requester ON requests
    FOR EACH ROW WHEN (OLD.number IS DISTINCT FROM NEW.number OR OLD.title IS DISTINCT FROM NEW.title
        OR OLD.body IS DISTINCT FROM NEW.body OR OLD.requester IS DISTINCT FROM NEW.requester)
    EXECUTE FUNCTION dealctl_request_search();
INSERT INTO request_search (request_id, vector)
    SELECT id, dealctl_request_vector(number, title, body, requester) FROM requests;
CREATE INDEX request_search_vector ON request_search USING gin (vector);

-- Messages and files keep their vectors too: a phrase's match is
-- rechecked against the row's vector, which computed again from the text
-- cost 20 µs a row (400 ms for a phrase of two common words on the
-- benchmark's deal), read from the row about 1 µs.
ALTER TABLE messages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (dealctl_search_vector(text)) STORED;
ALTER TABLE files ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (dealctl_search_vector(name)) STORED;
CREATE INDEX messages_search ON messages USING gin (search_vector);
CREATE INDEX files_search ON files USING gin (search_vector);
